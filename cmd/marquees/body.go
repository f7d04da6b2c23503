package marquees

import (
	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/output"
)

// fields are the marquee attributes create and update share; nameHelp
// words --name for the command.
func fields(nameHelp, requiredName, requiredHost string) []cmdutil.Field {
	return []cmdutil.Field{
		{Flag: "name", Key: "name", Help: nameHelp, Required: requiredName},
		{Flag: "host", Key: "host", Help: "Host name or address", Required: requiredHost},
		{Flag: "port", Key: "port", Help: "SSH port (default 22)", Kind: cmdutil.FieldInt, Check: checkPort},
		{Flag: "user", Key: "user", Help: "SSH user"},
		{Flag: "ssh-key-file", Key: "ssh_private_key", Help: "File holding the SSH private key (sent once, never printed)", Kind: cmdutil.FieldFile},
	}
}

func checkPort(port int) error {
	if port <= 0 || port > 65535 {
		return output.FlagErrorf("--port must be between 1 and 65535")
	}
	return nil
}

// marqueePayload is what a -f payload of `mq create` and `mq update` holds.
var marqueePayload = cmdutil.PayloadSchema{
	Wrapper: "marquee",
	Fields:  []string{"name", "host", "port", "user", "ssh_private_key"},
}
