package config

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"
)

// flagAnnotation marks a flag with the setting it sets, so Load reads a
// flag only for its own setting (a command's --token is not another's).
const flagAnnotation = "fibe_setting"

// flagValue holds a setting's flag as typed: Load parses it with the same
// parser as the environment and the file, so a bad value gets the same one
// line, naming the setting and the flag. A list's flag may be repeated:
// its values add up (--allow-origin A --allow-origin B is "A,B").
type flagValue struct {
	kind Kind
	text string
	set  bool // given at least once
}

func (v *flagValue) String() string { return v.text }
func (v *flagValue) Type() string   { return v.kind.String() }

func (v *flagValue) Set(s string) error {
	if v.kind == KindList && v.set {
		s = v.text + "," + s
	}
	v.text, v.set = s, true
	return nil
}

// AddGlobalFlags adds the flag of every global setting (Scope "") to fs:
// the root command's persistent flags.
func AddGlobalFlags(fs *pflag.FlagSet) {
	for _, s := range Settings {
		if s.Flag != "" && s.Scope == "" {
			addFlag(fs, s)
		}
	}
}

// AddFlags adds the flags of the named settings to fs (a command's own
// flags: --wait-timeout, --poll-interval). It panics on a key that is not
// in the table or has no flag: that is a programming error.
func AddFlags(fs *pflag.FlagSet, keys ...string) {
	for _, key := range keys {
		addFlag(fs, mustFlagSetting(key))
	}
}

// BindFlag marks a flag a command registered itself (any pflag type) as the
// flag of setting key, so Load takes its value when it was given.
func BindFlag(fs *pflag.FlagSet, key string) {
	s := mustFlagSetting(key)
	if err := fs.SetAnnotation(s.Flag, flagAnnotation, []string{s.Key}); err != nil {
		panic(fmt.Sprintf("config: binding setting %s: %v", key, err))
	}
}

func mustFlagSetting(key string) Setting {
	s, ok := Lookup(key)
	if !ok || s.Flag == "" {
		panic(fmt.Sprintf("config: no setting %q with a flag", key))
	}
	return s
}

func addFlag(fs *pflag.FlagSet, s Setting) {
	usage := s.Help
	if names := envVars(s); len(names) > 0 {
		usage += " (env " + strings.Join(names, ", ") + ")"
	}
	fs.Var(&flagValue{kind: s.Kind, text: s.Default}, s.Flag, usage)
	f := fs.Lookup(s.Flag)
	if s.Kind == KindBool {
		f.NoOptDefVal = "true"
	}
	f.Annotations = map[string][]string{flagAnnotation: {s.Key}}
}

// settingFlag is the flag of s in fs, if fs has one bound to s.
func settingFlag(fs *pflag.FlagSet, s Setting) *pflag.Flag {
	if fs == nil || s.Flag == "" {
		return nil
	}
	f := fs.Lookup(s.Flag)
	if f == nil {
		return nil
	}
	if keys := f.Annotations[flagAnnotation]; len(keys) != 1 || keys[0] != s.Key {
		return nil
	}
	return f
}
