package client

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/fibegg/fibe/internal/localapi"
)

// The playspec service against the emulator: CRUD, services, a multipart
// upload, DELETEs with a JSON body, registry credentials and validation.
func TestPlayspecsService(t *testing.T) {
	_, url := emulator(t, localapi.Config{})
	c := emulatorClient(t, url)
	ctx := ctxT(t)
	compose := "services:\n  web:\n    image: nginx:alpine\n    labels:\n      fibe.gg/port: \"80\"\n  db:\n    image: postgres:16\n"

	ps, _, err := c.Playspecs.Create(ctx, map[string]any{"name": "shop", "base_compose_yaml": compose}, MutationOptions{}, WaitOptions{})
	if err != nil || ps.Name != "shop" || len(ps.Services) != 2 || ps.BaseComposeYAML != compose {
		t.Fatalf("create: %+v (%v)", ps, err)
	}
	services, _, err := c.Playspecs.Services(ctx, "shop")
	if err != nil || len(services) != 2 || services[0].Name != "web" || !services[0].Public || services[0].Port != 80 {
		t.Fatalf("services: %+v (%v)", services, err)
	}

	ro := true
	ps, _, err = c.Playspecs.AddMountedFile(ctx, "shop", MountUpload{Filename: "nginx.conf", Content: []byte("events {}\n"),
		MountPath: "/etc/nginx/nginx.conf", ReadOnly: &ro, TargetServices: []string{"web"}}, MutationOptions{})
	if err != nil || len(ps.MountedFiles) != 1 || ps.MountedFiles[0].ByteSize != 10 || ps.MountedFiles[0].TargetServices[0] != "web" {
		t.Fatalf("upload: %+v (%v)", ps, err)
	}
	name := ps.MountedFiles[0].Filename
	rw := false
	ps, _, err = c.Playspecs.UpdateMountedFile(ctx, "shop", MountChange{Filename: name, MountPath: "/etc/nginx/conf.d/default.conf", ReadOnly: &rw}, MutationOptions{})
	if err != nil || ps.MountedFiles[0].MountPath != "/etc/nginx/conf.d/default.conf" || ps.MountedFiles[0].ReadOnly {
		t.Fatalf("update mount: %+v (%v)", ps, err)
	}
	if ps, _, err = c.Playspecs.RemoveMountedFile(ctx, "shop", name, MutationOptions{}); err != nil || len(ps.MountedFiles) != 0 {
		t.Fatalf("remove mount: %+v (%v)", ps, err)
	}
	_, _, err = c.Playspecs.RemoveMountedFile(ctx, "shop", name, MutationOptions{})
	mustError(t, err, CodeNotFound)

	creds, _, err := c.Playspecs.AddRegistryCredential(ctx, "shop", RegistryCredentialInput{RegistryType: "ghcr", RegistryURL: "ghcr.io", Username: "u", Secret: "s3cret"}, MutationOptions{})
	if err != nil || len(creds) != 1 || creds[0].ID == "" {
		t.Fatalf("add credential: %+v (%v)", creds, err)
	}
	if creds, _, err = c.Playspecs.RemoveRegistryCredential(ctx, "shop", string(creds[0].ID), MutationOptions{}); err != nil || len(creds) != 0 {
		t.Fatalf("remove credential: %+v (%v)", creds, err)
	}

	v, _, err := c.Playspecs.ValidateCompose(ctx, ComposeCheck{YAML: compose, JobMode: true})
	if err != nil || v.Valid || len(v.Errors) != 1 || len(v.Services) != 2 {
		t.Fatalf("validate: %+v (%v)", v, err)
	}
	if v, _, err = c.Playspecs.ValidateCompose(ctx, ComposeCheck{YAML: compose}); err != nil || !v.Valid {
		t.Fatalf("validate: %+v (%v)", v, err)
	}

	if _, err := c.Playspecs.Delete(ctx, "shop", MutationOptions{}, WaitOptions{}); err != nil {
		t.Fatal(err)
	}
	_, _, err = c.Playspecs.Get(ctx, "shop")
	mustError(t, err, CodeNotFound)
}

// An upload is multipart, with a boundary that depends on the content
// only, so the same upload is the same request (and journal signature).
func TestMountUploadIsDeterministicMultipart(t *testing.T) {
	var bodies []string
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		r.Body = io.NopCloser(strings.NewReader(s.Body))
		if err := r.ParseMultipartForm(1 << 20); err != nil {
			t.Errorf("not multipart: %v", err)
			return
		}
		if r.FormValue("mount_path") != "/a/b" || r.FormValue("readonly") != "false" || r.MultipartForm.File["file"][0].Filename != `we"ird.txt` {
			t.Errorf("form: %v %v", r.MultipartForm.Value, r.MultipartForm.File)
		}
		bodies = append(bodies, r.Header.Get("Content-Type")+"\n"+s.Body)
		replyJSON(w, http.StatusCreated, map[string]any{"id": 1, "name": "p"})
	})
	c, _ := newTestClient(t, srv.URL)
	ro := false
	for range 2 {
		if _, _, err := c.Playspecs.AddMountedFile(ctxT(t), "p", MountUpload{Filename: `we"ird.txt`, Content: []byte("x"), MountPath: "/a/b", ReadOnly: &ro}, MutationOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if len(bodies) != 2 || bodies[0] != bodies[1] || !strings.HasPrefix(bodies[0], "multipart/form-data; boundary=fibe-") {
		t.Fatalf("content types %q", bodies)
	}
}
