// Builds the console's front end into dist/ (or the directory given as the
// first argument): one JS bundle and one stylesheet, minified, with no
// source map and no banner, so the output depends only on the sources and
// the locked package versions. `go generate ./internal/console` runs it.
import * as esbuild from "esbuild";
import path from "node:path";

const out = process.argv[2] || "dist";
const common = { bundle: true, minify: true, legalComments: "none", logLevel: "warning", target: ["es2020"] };

await esbuild.build({ ...common, entryPoints: ["src/application.js"], outfile: path.join(out, "console.js"), format: "iife" });
await esbuild.build({ ...common, entryPoints: ["src/console.css"], outfile: path.join(out, "console.css") });
