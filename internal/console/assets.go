package console

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"html/template"
	"io/fs"
	"net/http"
	"strings"
	"sync"
)

//go:generate sh -c "cd web && npm ci --no-audit --no-fund --loglevel=error && node build.mjs dist"

//go:embed web/dist/console.js web/dist/console.css
var distFS embed.FS

//go:embed templates/*.html
var templateFS embed.FS

// assetVersion is a digest of the bundle, appended to asset URLs so that a
// new binary's pages never run an old cached bundle. It and the templates
// are made on first use: a command other than the console never pays for
// them at start-up.
var assetVersion = sync.OnceValue(func() string {
	h := sha256.New()
	for _, name := range []string{"web/dist/console.js", "web/dist/console.css"} {
		b, _ := distFS.ReadFile(name)
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
})

var templates = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("").Funcs(template.FuncMap{
		"statusClass": func(s string) string { return "status status-" + strings.ToLower(s) },
	}).ParseFS(templateFS, "templates/*.html"))
})

// serveAsset serves /assets/console.js and /assets/console.css.
func serveAsset(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, "/assets/")
	if name != "console.js" && name != "console.css" {
		http.NotFound(w, r)
		return
	}
	b, err := fs.ReadFile(distFS, "web/dist/"+name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	ctype := "text/css; charset=utf-8"
	if strings.HasSuffix(name, ".js") {
		ctype = "text/javascript; charset=utf-8"
	}
	w.Header().Set("Content-Type", ctype)
	if r.URL.Query().Get("v") == assetVersion() {
		w.Header().Set("Cache-Control", "private, max-age=31536000, immutable")
	} else {
		w.Header().Set("Cache-Control", "no-cache")
	}
	_, _ = w.Write(b)
}
