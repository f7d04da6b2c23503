package client

import (
	"testing"

	"github.com/fibegg/fibe/internal/localapi"
)

// A launch is unwrapped and answers what it created; the playground is
// fetchable at once.
func TestLaunchCreatesPlayspecAndPlayground(t *testing.T) {
	_, url := emulator(t, localapi.Config{})
	c := emulatorClient(t, url)
	ctx := ctxT(t)
	res, _, err := c.Launch.Create(ctx, map[string]any{"name": "shop", "marquee_id": "local",
		"compose_yaml": "services:\n  web:\n    image: nginx:alpine\n", "env_overrides": map[string]any{"A": "1"}}, MutationOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.PlayspecID == 0 || res.PlaygroundID == 0 || res.PropsCreated == nil {
		t.Fatalf("launch result %+v", res)
	}
	pg, _, err := c.Playgrounds.Get(ctx, "shop")
	if err != nil || pg.ID != res.PlaygroundID {
		t.Fatalf("playground %+v, %v", pg, err)
	}
}
