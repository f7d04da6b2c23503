package cmdutil

import (
	"io"
	"os"

	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
)

// ReadTextFrom reads the text a flag names: a file, or - for ios's stdin,
// at most 1 MiB (the API refuses larger bodies). A file that cannot be
// read is a usage error naming the flag.
func ReadTextFrom(ios *iostreams.IOStreams, flag, path string) (string, error) {
	var r io.Reader
	source := path
	if path == "-" {
		r, source = ios.In, "stdin"
	} else {
		file, err := os.Open(path)
		if err != nil {
			return "", output.FlagErrorf("cannot read %s %s: %v", flag, path, unwrapPathError(err))
		}
		defer file.Close()
		r = file
	}
	data, err := io.ReadAll(io.LimitReader(r, maxPayload+1))
	if err != nil {
		return "", output.FlagErrorf("cannot read %s %s: %v", flag, source, unwrapPathError(err))
	}
	if len(data) > maxPayload {
		return "", output.FlagErrorf("%s %s is larger than 1 MiB", flag, source)
	}
	return string(data), nil
}
