package fibe_test

import (
	"strings"
	"testing"

	"github.com/fibegg/fibe/pkg/fibe"
)

func TestPlayspecsService(t *testing.T) {
	c := server(t).Client()
	ctx := ctxT(t)
	compose := "services:\n  worker:\n    image: alpine:3\n    labels:\n      fibe.gg/job_watch: \"true\"\n"
	ps, _, err := c.Playspecs.Create(ctx, &fibe.PlayspecCreateParams{Name: "jobs", BaseComposeYAML: compose, JobMode: new(true),
		Extra: map[string]any{"trigger_config": map[string]any{"enabled": true, "branch": "main"}}})
	if err != nil || ps.ID == 0 || !ps.JobMode || !ps.TriggerEnabled || ps.TriggerConfig["branch"] != "main" {
		t.Fatalf("create: %+v (%v)", ps, err)
	}
	ps, _, err = c.Playspecs.Update(ctx, "jobs", &fibe.PlayspecUpdateParams{Description: "Nightly jobs"})
	if err != nil || ps.Description != "Nightly jobs" || !ps.JobMode {
		t.Fatalf("update: %+v (%v)", ps, err)
	}
	services, _, err := c.Playspecs.Services(ctx, "jobs")
	if err != nil || len(services) != 1 || !services[0].JobWatch {
		t.Fatalf("services: %+v (%v)", services, err)
	}
	list, _, err := c.Playspecs.List(ctx, &fibe.ListOptions{Name: "job", Sort: "name_asc"})
	if err != nil || len(list) != 1 || list[0].Name != "jobs" {
		t.Fatalf("list: %+v (%v)", list, err)
	}
	v, _, err := c.Playspecs.ValidateCompose(ctx, fibe.ComposeCheck{YAML: "services:\n  web:\n    ports: [\"80\"]\n"})
	if err != nil || v.Valid || len(v.Errors) == 0 || !strings.Contains(v.Errors[0], "image") {
		t.Fatalf("validate: %+v (%v)", v, err)
	}
	if _, err := c.Playspecs.Delete(ctx, "jobs"); err != nil {
		t.Fatal(err)
	}
	_, _, err = c.Playspecs.Get(ctx, "jobs")
	if !fibe.IsNotFound(err) {
		t.Fatalf("after delete: %v", err)
	}
	// Bad service definitions are the server's 422, naming the field.
	_, _, err = c.Playspecs.Create(ctx, &fibe.PlayspecCreateParams{Name: "dup", BaseComposeYAML: compose,
		Extra: map[string]any{"services": []any{map[string]any{"name": "worker"}, map[string]any{"name": "worker"}}}})
	if e := asError(t, err); e.Code != "VALIDATION_FAILED" || !strings.Contains(e.Message, "services[1].name") {
		t.Fatalf("duplicate services: %+v", e)
	}
}

func TestPlayspecMountsAndCredentials(t *testing.T) {
	srv := server(t)
	c := srv.Client()
	ctx := ctxT(t)
	before := srv.Stats()
	for name, call := range map[string]func() error{
		"filename": func() error {
			_, _, err := c.Playspecs.AddMountedFile(ctx, "web", fibe.MountedFileUpload{MountPath: "/a"})
			return err
		},
		"mount_path": func() error {
			_, _, err := c.Playspecs.AddMountedFile(ctx, "web", fibe.MountedFileUpload{Filename: "a", MountPath: "a"})
			return err
		},
		"secret": func() error {
			_, _, err := c.Playspecs.AddRegistryCredential(ctx, "web", fibe.RegistryCredentialParams{RegistryType: "ghcr", RegistryURL: "ghcr.io", Username: "u"})
			return err
		},
	} {
		if e := asError(t, call()); e.Code != fibe.CodeInvalidArgument || e.Details["field"] != name {
			t.Errorf("%s: %+v", name, e)
		}
	}
	if after := srv.Stats(); after.Mutations != before.Mutations {
		t.Fatal("bad input was sent")
	}

	ro := true
	ps, _, err := c.Playspecs.AddMountedFile(ctx, "web", fibe.MountedFileUpload{Filename: "app.env", Content: []byte("A=1\n"), MountPath: "/app/.env", ReadOnly: &ro})
	if err != nil || len(ps.MountedFiles) != 1 || ps.MountedFiles[0].ByteSize != 4 || !ps.MountedFiles[0].ReadOnly {
		t.Fatalf("upload: %+v (%v)", ps, err)
	}
	name := ps.MountedFiles[0].Filename
	if ps, _, err = c.Playspecs.UpdateMountedFile(ctx, "web", fibe.MountedFileChange{Filename: name, MountPath: "/srv/.env"}); err != nil || ps.MountedFiles[0].MountPath != "/srv/.env" {
		t.Fatalf("update: %+v (%v)", ps, err)
	}
	if ps, _, err = c.Playspecs.RemoveMountedFile(ctx, "web", name); err != nil || len(ps.MountedFiles) != 0 {
		t.Fatalf("remove: %+v (%v)", ps, err)
	}

	creds, _, err := c.Playspecs.AddRegistryCredential(ctx, "broken", fibe.RegistryCredentialParams{RegistryType: "custom", RegistryURL: "registry.fibe.test", Username: "u", Secret: "s"})
	if err != nil || len(creds) != 1 || creds[0].ID == "" {
		t.Fatalf("add credential: %+v (%v)", creds, err)
	}
	if creds, _, err = c.Playspecs.RemoveRegistryCredential(ctx, "broken", creds[0].ID); err != nil || len(creds) != 0 {
		t.Fatalf("remove credential: %+v (%v)", creds, err)
	}
	_, _, err = c.Playspecs.RemoveRegistryCredential(ctx, "broken", "99")
	if !fibe.IsNotFound(err) {
		t.Fatalf("unknown credential: %v", err)
	}
}
