// Package iostreams is what the command line knows about its terminal:
// the three standard streams, which of them are terminals, whether color,
// a spinner or a prompt may be used, and how tables, detail views and JSON
// (with a --jq filter) are written. It knows nothing of the Fibe API: the
// wording of errors, exit codes and the progress of API operations live
// in package output, which drives these primitives.
//
// Keeping those decisions in one place is what lets the rest of the command
// line stay honest about the two audiences it serves. A person at a terminal
// gets color, a spinner and aligned tables; a script gets plain text, or
// exactly one JSON document on stdout with --json, and never an ANSI escape
// or a carriage return.
//
// IOStreams is built once per process (System) or per test (Test). Its
// settings come from the global flags (--json, --jq, --quiet, --no-color)
// and the environment (NO_COLOR, CI), and every printing helper consults it
// rather than the os package.
package iostreams
