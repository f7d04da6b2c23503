// Package config resolves the settings of one fibe invocation and keeps the
// user's credentials.
//
// Every setting is a row of one table (Settings): its name, flag,
// environment variable, config key, type, default and whether it is a
// secret. The defaults of the reliability contract are read from
// internal/reliability, not repeated. The table declares; spf13/viper
// resolves (resolve.go). Load makes one viper instance per invocation (no
// global one) with the table's layers: a command-line flag, then an
// environment variable (FIBE_<KEY>), then the config file
// ($XDG_CONFIG_HOME/fibe/config.yaml), then the built-in default. The file
// may hold named profiles under `profiles.<name>`; the active profile's
// values override the file's top-level ones, and only the keys the table
// lets the file hold are read from it. Viper reads the file, and
// `fibe config set` changes it through viper, then replaces it atomically
// (mode 0600): viper's own writer truncates in place. Each value is parsed
// to its type (duration, int, float, bool, URL, list, string) by the
// table's parser and remembers where it came from (derived: a flag that
// was given, a variable that is set, a key the file holds, else the
// default), so `fibe config list` and `--debug` can say; a value that
// does not parse is an *InvalidError naming the setting and its source (a
// usage error, exit 2). Secret settings (the API key, the MCP token, a
// state store URL's password) are masked wherever they are shown.
//
// The root command's global flags come from the table (AddGlobalFlags), as
// do the flags of commands that own a setting (AddFlags, BindFlag), so a
// flag's default and help are the table's.
//
// API keys are not kept in the config file: `fibe auth login` stores them
// per profile and API origin in the OS keyring (zalando/go-keyring), or,
// where there is no keyring (a headless Linux box, a container, or
// FIBE_NO_KEYRING set), in a credentials file only its owner can read
// (mode 0600). A key given with --api-key or FIBE_API_KEY wins over a
// stored one and is never written anywhere.
package config
