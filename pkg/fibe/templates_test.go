package fibe_test

import (
	"testing"

	"github.com/fibegg/fibe/pkg/fibe"
)

// Templates through the SDK: a create with its first version, SetPublic
// that reads first, a launch on a marquee.
func TestTemplatesAndLaunch(t *testing.T) {
	c := server(t).Client(quick)
	ctx := ctxT(t)
	tpl, _, err := c.Templates.Create(ctx, &fibe.TemplateCreateParams{Name: "shop", TemplateBody: "services:\n  web:\n    image: nginx\n"})
	if err != nil {
		t.Fatal(err)
	}
	if tpl.LatestVersion != 1 || len(tpl.Versions) != 1 {
		t.Fatalf("created %+v", tpl)
	}
	v, _, err := c.Templates.SetPublic(ctx, "shop", 0, true)
	if err != nil || !v.Public {
		t.Fatalf("publish: %+v, %v", v, err)
	}
	if _, _, err := c.Templates.Create(ctx, &fibe.TemplateCreateParams{Name: "no-body"}); !fibe.IsValidation(err) {
		t.Fatalf("a create without a body: %v", err)
	}
}
