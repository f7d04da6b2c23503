package fibetest_test

import (
	"context"
	"fmt"
	"log"

	"github.com/fibegg/fibe/pkg/fibe"
	"github.com/fibegg/fibe/pkg/fibetest"
)

func ExampleNewServer() {
	srv := fibetest.NewServer(fibetest.WithSeed(1))
	defer srv.Close()
	c := srv.Client()

	me, _, err := c.Me.Get(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(me.Email != "", srv.Stats().Requests["GET /api/me"])
	// Output: true map[200:1]
}

func ExampleServer_SetChaos() {
	srv := fibetest.NewServer()
	defer srv.Close()
	c := srv.Client(fibe.WithPolicy(fibe.Policy{MaxRetries: fibe.NoRetries}))

	if err := srv.SetChaos("503=1"); err != nil {
		log.Fatal(err)
	}
	_, _, err := c.Me.Get(context.Background())
	fmt.Println(fibe.IsUnavailable(err), fibe.IsRetryable(err))

	if err := srv.SetChaos(""); err != nil {
		log.Fatal(err)
	}
	_, _, err = c.Me.Get(context.Background())
	fmt.Println(err)
	fmt.Println(srv.Stats().Requests["GET /api/me"])
	// Output:
	// true true
	// <nil>
	// map[200:1 503:1]
}
