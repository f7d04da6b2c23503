package main

import (
	"bytes"
	"os"
	"testing"
)

// pkg/fibe/params_gen.go is what the generator writes from the
// descriptions as they are now (go generate ./pkg/fibe refreshes it).
func TestParamsAreFresh(t *testing.T) {
	want, err := generate()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../../pkg/fibe/params_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("pkg/fibe/params_gen.go is stale: run go generate ./pkg/fibe (or make generate)")
	}
}

func TestGoName(t *testing.T) {
	for in, want := range map[string]string{"ssh_private_key": "SSHPrivateKey", "playspec": "Playspec", "ssh-key-file": "SSHKeyFile",
		"playspec_id": "PlayspecID", "create": "Create"} {
		if got := goName(in); got != want {
			t.Errorf("goName(%q) = %q, want %q", in, got, want)
		}
	}
}
