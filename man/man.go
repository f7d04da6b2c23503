// Package man holds the manual pages of every command (section 1, one file
// per command), written by Cobra's generator through cmd/man/mangen (go
// generate) and embedded here for `fibe man`, which writes them out: the
// generator and the Markdown library it links stay out of the binary,
// whose every start would otherwise initialise them. A test
// (cmd/man/mangen) keeps the pages in step with the command tree.
package man

import "embed"

// Pages are the committed pages, fibe.1, fibe-playgrounds-create.1, ...
//
//go:embed *.1
var Pages embed.FS
