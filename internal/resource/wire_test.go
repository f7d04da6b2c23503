package resource_test

import (
	"cmp"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/localapi"
	"github.com/fibegg/fibe/internal/resource"
)

// The emulator keeps its own model of the platform; this test holds every
// description to it, and the client's services to the description: each
// path, status, sort key and filter is answered; a body built from every
// field is accepted and read back (write-only fields never are); every
// column names a key the emulator's items have; each action is the POST
// its description says, sent by the client where the emulator serves it.
func TestDescriptionsMatchTheEmulator(t *testing.T) {
	srv, err := localapi.New(localapi.Config{Speed: 50})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen []string // "POST /api/playgrounds/7/operations"
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Method+" "+r.URL.Path)
		mu.Unlock()
		srv.Handler().ServeHTTP(w, r)
	}))
	t.Cleanup(func() { srv.Close(); ts.Close() })
	c, err := client.New(client.Options{BaseURL: ts.URL, APIKey: localapi.DefaultAPIKey})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	get := func(path string) (int, []byte) {
		t.Helper()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, ts.URL+path, nil)
		req.Header.Set("Authorization", "Bearer "+localapi.DefaultAPIKey)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var raw json.RawMessage
		_ = json.NewDecoder(resp.Body).Decode(&raw)
		return resp.StatusCode, raw
	}
	firstName := func(r *resource.Resource) string { // the oldest: a seeded, usable one
		_, raw := get(r.Path + "?sort=created_at_asc")
		var env struct {
			Data []struct {
				Name string `json:"name"`
			} `json:"data"`
		}
		if json.Unmarshal(raw, &env) != nil || len(env.Data) == 0 {
			t.Fatalf("%s: no item to refer to", r.Path)
		}
		return env.Data[0].Name
	}

	keyFile := filepath.Join(t.TempDir(), "key")
	if err := os.WriteFile(keyFile, []byte("-----BEGIN KEY-----"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A playspec's compose: a service watched in job mode, as job_mode
	// (every Bool is sent true) asks.
	composeFile := filepath.Join(t.TempDir(), "compose.yml")
	compose := "services:\n  web:\n    image: nginx:1\n    labels:\n      fibe.gg/job_watch: \"true\"\n"
	if err := os.WriteFile(composeFile, []byte(compose), 0o600); err != nil {
		t.Fatal(err)
	}
	// samples are the values a field or filter needs where "wire-<arg>"
	// (or a name of what it refers to) is not one: "<resource>.<arg>" for a
	// field, "<resource>?<query>" for a filter.
	samples := map[string]any{
		"webhooks.url": "http://127.0.0.1:9/wire", "webhooks.event": []string{"webhook.test"},
		"webhooks?enabled": "true", "webhooks?url": "127.0.0.1",
	}
	for _, r := range resource.All() {
		// Create first, so that every list has an item whose keys are seen.
		var name string
		if r.Serves(resource.VerbCreate) {
			values := resource.Values{}
			for _, f := range r.FieldsOf(resource.VerbCreate) {
				if v, ok := samples[r.Name+"."+f.Arg]; ok {
					values[f.Arg] = v
					continue
				}
				switch f.Kind {
				case resource.Int:
					values[f.Arg] = max(f.Min, 22)
				case resource.Ref:
					values[f.Arg] = firstName(resource.MustLookup(f.Refers))
				case resource.Env:
					values[f.Arg] = []string{"WIRE=1"}
				case resource.File:
					values[f.Arg] = keyFile
					if f.Wire == "base_compose_yaml" {
						values[f.Arg] = composeFile
					}
				case resource.Bool:
					values[f.Arg] = true
				case resource.Strings:
					values[f.Arg] = []string{cmp.Or(f.Example, "wire-"+f.Arg)}
				default:
					if len(f.Enum) > 0 && f.Example == "" {
						values[f.Arg] = f.Enum[0]
						break
					}
					values[f.Arg] = cmp.Or(f.Example, "wire-"+f.Arg)
				}
			}
			body, err := r.Body(resource.VerbCreate, nil, values)
			if err != nil {
				t.Fatalf("%s: %v", r.Name, err)
			}
			created, _, err := r.Create(ctx, c, body, client.MutationOptions{}, client.WaitOptions{})
			if err != nil {
				t.Fatalf("%s: create with every field: %v", r.Name, err)
			}
			// Read it back by its id: with a get, or from the list when
			// the resource has none.
			var ident struct {
				ID   int64  `json:"id"`
				Name string `json:"name"`
			}
			raw, _ := json.Marshal(created)
			_ = json.Unmarshal(raw, &ident)
			name = cmp.Or(ident.Name, strconv.FormatInt(ident.ID, 10))
			var item map[string]any
			if r.Serves(resource.VerbGet) {
				_, raw = get(r.Path + "/" + strconv.FormatInt(ident.ID, 10))
				_ = json.Unmarshal(raw, &item)
			} else {
				_, raw = get(r.Path + "?per_page=100")
				var env struct {
					Data []map[string]any `json:"data"`
				}
				_ = json.Unmarshal(raw, &env)
				for _, it := range env.Data {
					if id, _ := it["id"].(float64); int64(id) == ident.ID {
						item = it
					}
				}
			}
			for _, f := range r.FieldsOf(resource.VerbCreate) {
				if _, ok := item[f.Wire]; ok == f.WriteOnly {
					t.Errorf("%s: field %s (write-only %v) read back: %v", r.Name, f.Wire, f.WriteOnly, ok)
				}
			}
		}

		code, raw := get(r.Path)
		var env struct {
			Data []map[string]any `json:"data"`
		}
		if code != http.StatusOK || json.Unmarshal(raw, &env) != nil || len(env.Data) == 0 {
			t.Fatalf("GET %s: %d %s", r.Path, code, raw)
		}
		if name == "" {
			name, _ = env.Data[0]["name"].(string)
		}
		// The table shows list items; the card one item as get answers it
		// (with the detail fields a list may leave out).
		detail := env.Data
		if r.Serves(resource.VerbGet) {
			var one map[string]any
			if _, raw := get(r.Path + "/" + url.PathEscape(name)); json.Unmarshal(raw, &one) == nil {
				detail = append(append([]map[string]any(nil), env.Data...), one)
			}
		}
		for i, col := range append(append([]resource.Column(nil), r.Columns...), r.Card...) {
			items := env.Data
			if i >= len(r.Columns) {
				items = detail
			}
			found := false
			for _, item := range items {
				_, a := item[col.Key]
				_, b := item[col.Fallback]
				found = found || a || (col.Fallback != "" && b)
			}
			if !found {
				t.Errorf("%s: column %q shows %q, which no item of the emulator has", r.Name, col.Header, col.Key)
			}
		}
		for _, st := range r.Statuses {
			if code, raw := get(r.Path + "?status=" + st); code != http.StatusOK {
				t.Errorf("%s: status %s: %d %s", r.Name, st, code, raw)
			}
		}
		for _, k := range r.SortKeys {
			for _, sort := range []string{k + "_asc", k + "_desc"} {
				if code, raw := get(r.Path + "?sort=" + sort); code != http.StatusOK {
					t.Errorf("%s: sort %s: %d %s", r.Name, sort, code, raw)
				}
			}
		}
		for _, f := range r.Filters {
			value, ok := samples[r.Name+"?"+f.Query].(string)
			switch {
			case ok:
			case f.Refers != "":
				value = firstName(resource.MustLookup(f.Refers))
			case len(f.Values) > 0:
				value = f.Values[0]
			default:
				value = "wire"
			}
			if code, raw := get(r.Path + "?" + f.Query + "=" + value); code != http.StatusOK {
				t.Errorf("%s: filter %s: %d %s", r.Name, f.Query, code, raw)
			}
		}

		for _, a := range r.Actions {
			mu.Lock()
			seen = nil
			mu.Unlock()
			_, _, err := r.Run(ctx, c, name, a, false, client.MutationOptions{}, client.WaitOptions{PollInterval: 20 * time.Millisecond})
			if err != nil {
				t.Errorf("%s %s: %v", r.Name, a.Name, err)
				continue
			}
			mu.Lock()
			sent := strings.Join(seen, "\n")
			mu.Unlock()
			if !strings.HasPrefix(sent, "POST "+r.Path+"/") || !strings.Contains(sent, a.Path+"\n") && !strings.HasSuffix(sent, a.Path) {
				t.Errorf("%s %s: the client sent\n%s\nwant POST %s/<ref>%s", r.Name, a.Name, sent, r.Path, a.Path)
			}
		}
	}
}

// A create that waits keeps its journal entry only while it waits: with a
// minted key or a given one, nothing is left pending once it has run.
func TestCreateAndWaitLeavesNothingPending(t *testing.T) {
	srv, err := localapi.New(localapi.Config{Speed: 50})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(func() { srv.Close(); ts.Close() })
	c, err := client.New(client.Options{BaseURL: ts.URL, APIKey: localapi.DefaultAPIKey, Profile: "test", JournalWindow: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pg := resource.Playgrounds()
	for name, key := range map[string]string{"minted": "", "given": "ci-7-create"} {
		body, err := pg.Body(resource.VerbCreate, nil, resource.Values{"name": name, "playspec": "web"})
		if err != nil {
			t.Fatal(err)
		}
		item, _, err := pg.Create(ctx, c, body, client.MutationOptions{IdempotencyKey: key}, client.WaitOptions{PollInterval: 20 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		if p := item.(*client.Playground); p.Status != "running" {
			t.Errorf("%s: status %q, want running", name, p.Status)
		}
		if pending, err := c.Journal().List(); err != nil || len(pending) != 0 {
			t.Errorf("%s: pending after the create ran: %+v (%v)", name, pending, err)
		}
	}
}
