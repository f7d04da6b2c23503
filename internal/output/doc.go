// Package output is how the fibe command line shows the things of the
// Fibe API on the terminal that package iostreams drives: errors (one
// human line with hints, or the JSON error document of docs/contract.md §9), the
// exit code each error becomes, the progress of an API operation from the
// client's events, and the fibe command lines it suggests.
//
// ExitCode is the single mapping from an error to the stable exit codes of
// the reliability contract: an API error's class (client.ClassOf, which
// the Go SDK's predicates read too); the hints come from the rules table;
// PrintError is the single place an error is rendered, and ErrorBodyOf the
// single builder of the JSON error document (the MCP server uses it too).
package output
