// Package output is everything the fibe command line knows about its
// terminal: which streams are terminals, whether color, a spinner or a
// prompt may be used, how tables, detail views and JSON are printed, how an
// error is shown, and which exit code it becomes.
//
// Keeping those decisions in one place is what lets the rest of the command
// line stay honest about the two audiences it serves. A person at a terminal
// gets color, a spinner showing the status of an asynchronous operation and
// aligned tables; a script gets plain text, or exactly one JSON document on
// stdout with --json, and never an ANSI escape or a carriage return.
//
// IOStreams is built once per process (System) or per test (Test). Its
// settings come from the global flags (--json, --jq, --quiet, --no-color)
// and the environment (NO_COLOR, CI), and every printing helper consults it
// rather than the os package.
//
// ExitCode is the single mapping from an error to the stable exit codes of
// the reliability contract; PrintError is the single place an error is
// rendered, as one human line or as the JSON error document.
package output
