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
	res, _, err := c.Templates.Launch(ctx, "shop", &fibe.TemplateLaunchParams{Marquee: "local", Name: "shop-pg"})
	if err != nil || res.PlaygroundID == 0 || res.Name != "shop-pg" {
		t.Fatalf("template launch: %+v, %v", res, err)
	}
	res, _, err = c.Launch.Create(ctx, &fibe.LaunchParams{Name: "spec-only", ComposeYAML: "services:\n  web:\n    image: nginx\n"})
	if err != nil || res.PlayspecID == 0 || res.PlaygroundID != 0 {
		t.Fatalf("launch: %+v, %v", res, err)
	}
	if _, _, err := c.Launch.Create(ctx, &fibe.LaunchParams{Name: "x"}); !fibe.IsValidation(err) {
		t.Fatalf("a launch without compose: %v", err)
	}
}
