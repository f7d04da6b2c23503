package mcpserver

import (
	"context"
	"os"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/fibegg/fibe/internal/client"
)

// ---- marquees

type mqListIn struct{ listArgs }

func mqList() *Tool {
	return define(spec{name: "fibe_marquees_list", title: "List marquees", readOnly: true,
		desc:   "List marquees (one page, or every page with all). Same as `fibe mq list --json`.",
		output: listSchema[client.Marquee](), tweak: listRanges},
		func(ctx context.Context, c *call, in *mqListIn) (any, error) {
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			lo := in.options()
			return listed(in.All, func() ([]client.Marquee, error) { return cl.Marquees.ListAll(ctx, lo) },
				func() ([]client.Marquee, *client.ListMeta, error) { return cl.Marquees.List(ctx, lo) })
		})
}

type mqRefIn struct {
	Marquee string `json:"marquee"`
}

func (r mqRefIn) validate() error { return nonBlank("marquee", r.Marquee) }

func mqGet() *Tool {
	return define(spec{name: "fibe_marquees_get", title: "Show a marquee", readOnly: true,
		desc:   "One marquee by id or name. Same as `fibe mq get --json`.",
		output: schemaOf[client.Marquee](), tweak: mqRef},
		func(ctx context.Context, c *call, in *mqRefIn) (any, error) {
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			m, _, err := cl.Marquees.Get(ctx, in.Marquee)
			return m, err
		})
}

// mqFields are a marquee's settable fields.
type mqFields struct {
	Host       string `json:"host,omitempty" jsonschema:"Host name or address"`
	Port       int    `json:"port,omitempty" jsonschema:"SSH port (default 22)"`
	User       string `json:"user,omitempty" jsonschema:"SSH user"`
	SSHKeyFile string `json:"ssh_key_file,omitempty" jsonschema:"Path of a file, on the machine running fibe, holding the SSH private key (sent once, never shown)"`
}

func (f mqFields) body(name string) (map[string]any, error) {
	body := map[string]any{}
	if name != "" {
		body["name"] = name
	}
	if f.Host != "" {
		body["host"] = f.Host
	}
	if f.Port != 0 {
		body["port"] = f.Port
	}
	if f.User != "" {
		body["user"] = f.User
	}
	if f.SSHKeyFile != "" {
		key, err := os.ReadFile(f.SSHKeyFile)
		if err != nil {
			return nil, invalidArgument("ssh_key_file", "cannot read ssh_key_file: %v", err)
		}
		body["ssh_private_key"] = string(key)
	}
	return body, nil
}

func portRange(s *jsonschema.Schema) {
	s.Properties["port"].Minimum, s.Properties["port"].Maximum = ptr(1.0), ptr(65535.0)
}

type mqCreateIn struct {
	Name string `json:"name" jsonschema:"Name of the marquee"`
	mqFields
	mutationArgs
	waitArgs
}

func (in mqCreateIn) validate() error {
	if err := nonBlank("name", in.Name); err != nil {
		return err
	}
	return nonBlank("host", in.Host)
}

func mqCreate() *Tool {
	return define(spec{name: "fibe_marquees_create", title: "Register a marquee",
		desc:   "Register a marquee (a Docker host reached over SSH). Same as `fibe mq create --json`.",
		output: orHandle(schemaOf[client.Marquee]()),
		tweak: func(s *jsonschema.Schema) {
			portRange(s)
			s.Required = append(s.Required, "host")
		}},
		func(ctx context.Context, c *call, in *mqCreateIn) (any, error) {
			body, err := in.body(in.Name)
			if err != nil {
				return nil, err
			}
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			c.setLabel("creating marquee %s", in.Name)
			m, resp, err := cl.Marquees.Create(ctx, body, in.mutationArgs.options(), in.waitArgs.options(c))
			c.resp = resp
			if err != nil {
				return nil, err
			}
			if m == nil {
				return resp.Accepted, nil
			}
			return m, nil
		})
}

type mqUpdateIn struct {
	Marquee string `json:"marquee"`
	Name    string `json:"name,omitempty" jsonschema:"New name"`
	mqFields
	mutationArgs
	waitArgs
}

func (in mqUpdateIn) validate() error {
	if err := nonBlank("marquee", in.Marquee); err != nil {
		return err
	}
	if in.Name == "" && in.mqFields == (mqFields{}) {
		return invalidArgument("name", "nothing to change: give name, host, port, user or ssh_key_file")
	}
	return nil
}

func mqUpdate() *Tool {
	return define(spec{name: "fibe_marquees_update", title: "Change a marquee", idempotent: true,
		desc:   "Change a marquee's name, host, port, user or SSH key. Same as `fibe mq update --json`.",
		output: orHandle(schemaOf[client.Marquee]()), tweak: func(s *jsonschema.Schema) { mqRef(s); portRange(s) }},
		func(ctx context.Context, c *call, in *mqUpdateIn) (any, error) {
			body, err := in.body(in.Name)
			if err != nil {
				return nil, err
			}
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			c.setLabel("updating marquee %s", in.Marquee)
			m, resp, err := cl.Marquees.UpdateWait(ctx, in.Marquee, body, in.mutationArgs.options(), in.waitArgs.options(c))
			c.resp = resp
			if err != nil {
				return nil, err
			}
			if m == nil {
				return resp.Accepted, nil
			}
			return m, nil
		})
}

type mqDeleteIn struct {
	Marquee string `json:"marquee"`
	confirmArgs
	mutationArgs
	waitArgs
}

func (in mqDeleteIn) validate() error  { return nonBlank("marquee", in.Marquee) }
func (in mqDeleteIn) question() string { return "Delete marquee " + in.Marquee + "?" }

func mqDelete() *Tool {
	return define(spec{name: "fibe_marquees_delete", title: "Delete a marquee", destructive: true, idempotent: true,
		desc:   "Delete a marquee. Needs \"confirm\": true. Same as `fibe mq delete --yes --json`.",
		output: orHandle(deletedSchema("marquee")), tweak: mqRef},
		func(ctx context.Context, c *call, in *mqDeleteIn) (any, error) {
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			c.setLabel("deleting marquee %s", in.Marquee)
			wo := in.waitArgs.options(c)
			resp, err := cl.Marquees.Delete(ctx, in.Marquee, in.mutationArgs.options(), wo)
			c.resp = resp
			if err != nil {
				return nil, err
			}
			if wo.NoWait && resp != nil && resp.Accepted != nil {
				return resp.Accepted, nil
			}
			return deleted("marquee", in.Marquee), nil
		})
}

type mqTestIn struct {
	Marquee string `json:"marquee"`
	mutationArgs
	waitArgs
}

func (in mqTestIn) validate() error { return nonBlank("marquee", in.Marquee) }

func mqTestConnection() *Tool {
	return define(spec{name: "fibe_marquees_test_connection", title: "Test a marquee's SSH connection", readOnly: true,
		desc: "Check that Fibe can reach a marquee over SSH: {\"success\", \"message\", \"error\"}. A marquee that cannot be reached " +
			"is a result with success false. Same as `fibe mq test-connection --json`.",
		output: orHandle(schemaOf[client.ConnectionTest]()), tweak: mqRef},
		func(ctx context.Context, c *call, in *mqTestIn) (any, error) {
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			c.setLabel("testing the connection to %s", in.Marquee)
			res, resp, err := cl.Marquees.TestConnection(ctx, in.Marquee, in.mutationArgs.options(), in.waitArgs.options(c))
			c.resp = resp
			if err != nil {
				return nil, err
			}
			if res == nil {
				return resp.Accepted, nil
			}
			return res, nil
		})
}
