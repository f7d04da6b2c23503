// Package resource describes each resource of the Fibe API once, as Go
// values: its name and aliases, its path and body wrapper, its fields
// (wire name, the name every door gives it, type, whether it is required,
// allowed values, bounds, write-only), its list filters and sort keys, its
// table columns and detail card, and its actions.
//
// Every door is built from these descriptions: the CLI's commands and
// flags, the MCP tools' input schemas, the console's action forms. The
// body a verb sends and what a verb means (does create wait until the
// playground runs?) are decided here, once, in Body and the verb runners,
// and every door calls them. The emulator keeps its own model of the
// platform on purpose: a wire test compares the two (docs/architecture.md,
// "Adding a resource").
//
// Descriptions are built on first use (All), not at package init: fibe's
// startup has a budget.
package resource
