package playgrounds

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/cmd/cmdutil/cmdtest"
	"github.com/fibegg/fibe/cmd/factory"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
)

// A server that refuses an unknown playspec without naming the known ones:
// the error gains them from GET /api/playspecs.
func TestUnknownPlayspecListsTheKnownOnes(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == http.MethodPost && r.URL.Path == "/api/playgrounds":
			w.WriteHeader(http.StatusUnprocessableEntity)
			fmt.Fprint(w, `{"error":{"code":"VALIDATION_FAILED","message":"playspec_id is invalid","details":{"playspec_id":["is invalid"]}}}`)
		case r.Method == http.MethodGet && r.URL.Path == "/api/playspecs":
			fmt.Fprint(w, `{"data":[{"id":1,"name":"rails"},{"id":2,"name":"node"}],"meta":{"page":1,"per_page":100,"total":2}}`)
		default:
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, `{"error":{"code":"RESOURCE_NOT_FOUND","message":"not found"}}`)
		}
	}))
	t.Cleanup(ts.Close)
	cmdtest.Isolate(t, map[string]string{"FIBE_API_URL": ts.URL, "FIBE_API_KEY": "fibe_test_key"})
	ios, _, _, _ := iostreams.Test()
	f := factory.New(ios, nil)
	err := cmdutil.CreateRun(context.Background(), createOpts(f, map[string]any{"name": "x", "playspec": "rials"}))
	var ce *client.Error
	if !errors.As(err, &ce) || ce.Code != client.CodeValidation {
		t.Fatalf("create with an unknown playspec: %v", err)
	}
	if known, _ := ce.Details["known_playspecs"].([]string); !slices.Equal(known, []string{"rails", "node"}) {
		t.Fatalf("details %v", ce.Details)
	}
}
