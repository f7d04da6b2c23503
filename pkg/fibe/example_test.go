package fibe_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/fibegg/fibe/pkg/fibe"
	"github.com/fibegg/fibe/pkg/fibetest"
)

// A program creates a playground, rolls it out and reads its status. The
// emulator stands in for https://fibe.gg.
func Example() {
	srv := fibetest.NewServer(fibetest.WithSpeed(20))
	defer srv.Close()

	c, err := fibe.NewClient(fibe.WithBaseURL(srv.URL), fibe.WithAPIKey(srv.APIKey),
		fibe.WithPolicy(fibe.Policy{PollInterval: 50 * time.Millisecond}))
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()

	pg, _, err := c.Playgrounds.Create(ctx, &fibe.PlaygroundCreateParams{Name: "demo", Playspec: "web", Marquee: "local"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(pg.Name, pg.Status)

	st, _, err := c.Playgrounds.Rollout(ctx, "demo")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(st.Name, st.Status)
	// Output:
	// demo creating
	// demo running
}

func ExampleNewClient() {
	_, err := fibe.NewClient(fibe.WithBaseURL("ftp://fibe.gg"))
	var e *fibe.Error
	if errors.As(err, &e) {
		fmt.Println(e.Code, e.Details["field"])
	}

	c, err := fibe.NewClient(
		fibe.WithAPIKey("fibe_live_..."),
		fibe.WithUserAgent("release-bot/2.1"),
		fibe.WithPolicy(fibe.Policy{MaxRetries: 5, PollTimeout: 10 * time.Minute}),
	)
	fmt.Println(c != nil, err)
	// Output:
	// INVALID_ARGUMENT base_url
	// true <nil>
}

func ExamplePlaygroundsService_All() {
	srv := fibetest.NewServer()
	defer srv.Close()
	c := srv.Client()
	ctx := context.Background()
	for _, n := range []string{"ci-1", "ci-2", "ci-3", "dev"} {
		if _, _, err := c.Playgrounds.Create(ctx, &fibe.PlaygroundCreateParams{Name: n, Playspec: "web", Marquee: "local"}); err != nil {
			log.Fatal(err)
		}
	}

	// Two playgrounds a page; a page is fetched when the previous one is used up.
	o := &fibe.PlaygroundListOptions{ListOptions: fibe.ListOptions{PerPage: 2, Search: "ci-", Sort: "name_asc"}}
	for pg, err := range c.Playgrounds.All(ctx, o) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(pg.Name)
	}
	// Output:
	// ci-1
	// ci-2
	// ci-3
}

// A create whose answer was lost after the server did it is sent again
// with the same key: the server replays its answer, and there is one
// playground.
func ExamplePlaygroundsService_Create_idempotent() {
	srv := fibetest.NewServer(fibetest.WithChaos("commit-then-502=1"))
	defer srv.Close()
	c := srv.Client(fibe.WithPolicy(fibe.Policy{BaseDelay: 10 * time.Millisecond}))

	pg, resp, err := c.Playgrounds.Create(context.Background(),
		&fibe.PlaygroundCreateParams{Name: "once", Playspec: "web", Marquee: "local"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(pg.Name, "replayed:", resp.Replayed(), "created:", srv.Stats().Creates["once"])
	// Output: once replayed: true created: 1
}

// NoWait hands back the operation instead of waiting for it; it can be
// waited on later, by another process too.
func ExamplePlaygroundsService_Rollout_noWait() {
	srv := fibetest.NewServer(fibetest.WithSpeed(20))
	defer srv.Close()
	c := srv.Client(fibe.WithPolicy(fibe.Policy{PollInterval: 50 * time.Millisecond}))
	ctx := context.Background()
	if _, _, err := c.Playgrounds.Create(ctx, &fibe.PlaygroundCreateParams{Name: "later", Playspec: "web", Marquee: "local"}); err != nil {
		log.Fatal(err)
	}

	st, resp, err := c.Playgrounds.Rollout(ctx, "later", fibe.NoWait())
	if err != nil {
		log.Fatal(err)
	}
	op := resp.Operation()
	fmt.Println(st == nil, op.ID != "")

	done, _, err := c.Operations.Wait(ctx, op.ID)
	if err != nil {
		log.Fatal(err)
	}
	var ps fibe.PlaygroundStatus
	if err := done.Decode(&ps); err != nil {
		log.Fatal(err)
	}
	fmt.Println(done.Status, ps.Status)
	// Output:
	// true true
	// success running
}

func ExamplePlaygroundsService_FollowLogs() {
	srv := fibetest.NewServer(fibetest.WithSpeed(20))
	defer srv.Close()
	c := srv.Client(fibe.WithPolicy(fibe.Policy{PollInterval: 50 * time.Millisecond}))
	ctx := context.Background()
	if _, _, err := c.Playgrounds.Create(ctx, &fibe.PlaygroundCreateParams{Name: "tail", Playspec: "web", Marquee: "local"}); err != nil {
		log.Fatal(err)
	}
	if _, _, err := c.Playgrounds.Rollout(ctx, "tail"); err != nil {
		log.Fatal(err)
	}

	var first, n int64
	for line, err := range c.Playgrounds.FollowLogs(ctx, "tail", nil) {
		if err != nil {
			log.Fatal(err)
		}
		if n == 0 {
			first = line.Seq
		}
		if line.Seq != first+n {
			log.Fatalf("line %d out of order", line.Seq)
		}
		if n++; n == 5 {
			break // closes the stream
		}
	}
	fmt.Println(n, "lines in order")
	// Output: 5 lines in order
}

// A CI job binds its own key: a re-run of the job replays the create
// instead of making a second playground.
func ExampleWithIdempotencyKey() {
	srv := fibetest.NewServer()
	defer srv.Close()
	c := srv.Client()
	ctx := fibe.WithIdempotencyKey(context.Background(), "ci-run-1234-create")

	for range 2 {
		_, resp, err := c.Playgrounds.Create(ctx, &fibe.PlaygroundCreateParams{Name: "ci-1234", Playspec: "web", Marquee: "local"})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(resp.IdempotencyKey(), resp.Replayed())
	}
	fmt.Println("created:", srv.Stats().Creates["ci-1234"])
	// Output:
	// ci-run-1234-create false
	// ci-run-1234-create true
	// created: 1
}

func ExampleIsNotFunded() {
	srv := fibetest.NewServer()
	defer srv.Close()
	c := srv.Client()

	_, _, err := c.Playgrounds.Create(context.Background(), &fibe.PlaygroundCreateParams{Name: "x", Playspec: "web", Marquee: "unpaid"})
	switch {
	case fibe.IsNotFunded(err):
		fmt.Println("top the marquee up; retrying will not help")
	case err != nil:
		log.Fatal(err)
	}
	// Output: top the marquee up; retrying will not help
}

func ExampleError() {
	srv := fibetest.NewServer()
	defer srv.Close()
	c := srv.Client()

	_, _, err := c.Playgrounds.Get(context.Background(), "nope")
	if e, ok := errors.AsType[*fibe.Error](err); ok {
		fmt.Println(e.Code, e.Status, e.Retryable)
	}
	fmt.Println(errors.Is(err, &fibe.Error{Code: fibe.CodeResourceNotFound}))

	// Bad input is refused before anything is sent.
	_, _, err = c.Playgrounds.Create(context.Background(), nil)
	if e, ok := errors.AsType[*fibe.Error](err); ok {
		fmt.Println(e.Code, e.Details["field"])
	}
	// Output:
	// RESOURCE_NOT_FOUND 404 false
	// true
	// INVALID_ARGUMENT params
}

func ExampleClient_RateLimit() {
	srv := fibetest.NewServer(fibetest.WithRateLimit(100, time.Minute))
	defer srv.Close()
	c := srv.Client()

	_, ok := c.RateLimit()
	fmt.Println(ok) // nothing answered yet
	if _, _, err := c.Me.Get(context.Background()); err != nil {
		log.Fatal(err)
	}
	rl, ok := c.RateLimit()
	fmt.Println(ok, rl.Limit, rl.Remaining)
	// Output:
	// false
	// true 100 99
}
