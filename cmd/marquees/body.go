package marquees

import (
	"os"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/present"
)

// fields are the marquee attributes create and update share.
type fields struct {
	Name       string
	Host       string
	Port       int
	User       string
	SSHKeyFile string
	File       string
}

func addFieldFlags(cmd *cobra.Command, fl *fields, nameHelp string) {
	cmd.Flags().StringVar(&fl.Name, "name", "", nameHelp)
	cmd.Flags().StringVar(&fl.Host, "host", "", "Host name or address")
	cmd.Flags().IntVar(&fl.Port, "port", 0, "SSH port (default 22)")
	cmd.Flags().StringVar(&fl.User, "user", "", "SSH user")
	cmd.Flags().StringVar(&fl.SSHKeyFile, "ssh-key-file", "", "File holding the SSH private key (sent once, never printed)")
	cmd.Flags().StringVarP(&fl.File, "file", "f", "", "JSON payload file, or - for stdin")
}

// marqueePayload is what a -f payload of `mq create` and `mq update` holds.
var marqueePayload = cmdutil.PayloadSchema{
	Wrapper: "marquee",
	Fields:  []string{"name", "host", "port", "user", "ssh_private_key"},
}

// body merges the payload file and the flags (flags win).
func (fl *fields) body(f *cmdutil.Factory, cmd *cobra.Command) (map[string]any, error) {
	body := map[string]any{}
	if fl.File != "" {
		var err error
		if body, err = cmdutil.ReadPayloadFor(f, fl.File, marqueePayload); err != nil {
			return nil, err
		}
	}
	if fl.Name != "" {
		body["name"] = fl.Name
	}
	if fl.Host != "" {
		body["host"] = fl.Host
	}
	if cmd.Flags().Changed("port") {
		if fl.Port <= 0 || fl.Port > 65535 {
			return nil, present.FlagErrorf("--port must be between 1 and 65535")
		}
		body["port"] = fl.Port
	}
	if fl.User != "" {
		body["user"] = fl.User
	}
	if fl.SSHKeyFile != "" {
		key, err := os.ReadFile(fl.SSHKeyFile)
		if err != nil {
			return nil, present.FlagErrorf("cannot read --ssh-key-file: %v", err)
		}
		body["ssh_private_key"] = string(key)
	}
	return body, nil
}
