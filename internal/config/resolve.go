package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"
	"go.yaml.in/yaml/v3"
)

// EnvPrefix is the prefix of every setting's environment variable: a
// setting's variable is FIBE_ and its key in capitals (TestTableDefaults
// holds the table to it).
const EnvPrefix = "FIBE"

// profilesKey is the config file's section of named profiles:
// profiles.<name>.<key>.
const profilesKey = "profiles"

// resolver resolves the settings of one invocation. Its viper instance
// holds the layers, from the table: each setting's flag (when fs has one
// bound to it), its environment variables, the active profile's view of
// config.yaml (useFile) and its default; viper picks the value. The
// resolver says where that value came from and parses it with the
// setting's own parser, so a bad value is one line naming both.
type resolver struct {
	v    *viper.Viper
	fs   *pflag.FlagSet
	file map[string]string // the keys the file layer holds → "profile NAME" or "config file"
}

func newResolver(fs *pflag.FlagSet) *resolver {
	v := viper.New()
	v.SetEnvPrefix(EnvPrefix)
	for _, s := range Settings {
		v.SetDefault(s.Key, s.Default)
		if names := envVars(s); len(names) > 0 {
			_ = v.BindEnv(append([]string{s.Key}, names...)...) // fails only without a key
		}
		if f := settingFlag(fs, s); f != nil {
			_ = v.BindFlagValue(s.Key, flagText{f}) // fails only without a flag
		}
	}
	return &resolver{v: v, fs: fs}
}

// useFile gives the resolver its file layer: for each key config.yaml may
// hold, the profile's value, else the file's top-level one. Keys the file
// holds for settings it may not (api_key, debug, ...) are not read.
func (r *resolver) useFile(doc *viper.Viper, profile string) {
	layer := map[string]any{}
	r.file = map[string]string{}
	for _, s := range Settings {
		if !s.File {
			continue
		}
		if v := doc.Get(profilesKey + "." + profile + "." + s.Key); v != nil {
			layer[s.Key], r.file[s.Key] = v, "profile "+profile
		} else if v := doc.Get(s.Key); v != nil {
			layer[s.Key], r.file[s.Key] = v, "config file"
		}
	}
	_ = r.v.MergeConfigMap(layer) // never fails
}

// resolve finds the value of one setting and parses it.
func (r *resolver) resolve(s Setting) (Value, error) {
	source := r.source(s)
	typed, canon, err := s.Parse(stringValue(r.v.Get(s.Key)))
	if err != nil {
		return Value{}, invalidf("%s (from %s): %v", s.Key, source, err)
	}
	return Value{Key: s.Key, Value: s.Display(canon), Source: source, Flag: s.Flag, Env: s.Env, typed: typed}, nil
}

// source names the layer viper took s from, by the same order: a flag
// that was given, a variable that is set and not empty, a key the file
// layer holds, else the default.
func (r *resolver) source(s Setting) string {
	if f := settingFlag(r.fs, s); f != nil && f.Changed {
		return "flag --" + s.Flag
	}
	for _, n := range envVars(s) {
		if os.Getenv(n) != "" {
			return "env " + n
		}
	}
	if from, ok := r.file[s.Key]; ok {
		return from
	}
	return "default"
}

// envVars are the setting's variables, in the order they are read.
func envVars(s Setting) []string {
	var names []string
	if s.Env != "" {
		names = append(names, s.Env)
	}
	return append(names, s.Aliases...)
}

// flagText is a setting's flag as viper reads it: as the text given.
// Viper would turn the text of an "int" or "bool" flag into a number or a
// boolean itself (a bad "many" becoming 0); the setting's parser does, and
// refuses what does not parse.
type flagText struct{ f *pflag.Flag }

func (t flagText) HasChanged() bool    { return t.f.Changed }
func (t flagText) Name() string        { return t.f.Name }
func (t flagText) ValueString() string { return t.f.Value.String() }
func (t flagText) ValueType() string   { return "string" }

// stringValue is a value of the file, a variable or a flag as the text
// the setting's parser reads; a YAML list is comma-separated.
func stringValue(v any) string {
	switch t := v.(type) {
	case nil:
		return ""
	case []any:
		parts := make([]string, len(t))
		for i, e := range t {
			parts[i] = fmt.Sprint(e)
		}
		return strings.Join(parts, ",")
	case []string:
		return strings.Join(t, ",")
	default:
		return fmt.Sprint(t)
	}
}

// readDocument reads config.yaml with viper: every key of the file, as
// written; a missing file is an empty one.
func readDocument(path string) (*viper.Viper, error) {
	doc := viper.New()
	doc.SetConfigFile(path)
	doc.SetConfigType("yaml")
	err := doc.ReadInConfig()
	if err == nil || errors.Is(err, fs.ErrNotExist) {
		return doc, nil
	}
	var parse viper.ConfigParseError
	if errors.As(err, &parse) {
		return nil, invalidf("config file %s is not valid YAML: %v", path, parse.Unwrap())
	}
	return nil, err
}

// writeDocument replaces config.yaml with settings (a document's
// AllSettings), in YAML as viper reads it, mode 0600, atomically: viper's
// own WriteConfig truncates the file in place, with its mode, and a reader
// could see half of it.
func writeDocument(path string, settings map[string]any) error {
	data, err := yaml.Marshal(settings)
	if err != nil {
		return err
	}
	return writeFileAtomic(path, data, 0o600)
}

// deletePath removes the value at path from nested maps (a document's
// AllSettings, whose keys viper has lower-cased), and the maps it leaves
// empty.
func deletePath(m map[string]any, path []string) {
	key := strings.ToLower(path[0])
	if len(path) == 1 {
		delete(m, key)
		return
	}
	sub, ok := m[key].(map[string]any)
	if !ok {
		return
	}
	deletePath(sub, path[1:])
	if len(sub) == 0 {
		delete(m, key)
	}
}
