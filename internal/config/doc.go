// Package config resolves the settings of one fibe invocation and keeps the
// user's credentials.
//
// Every setting is looked up in a fixed order: a command-line flag, then an
// environment variable, then the config file
// ($XDG_CONFIG_HOME/fibe/config.yaml), then the built-in default. The file
// may hold named profiles under `profiles.<name>`; the active profile's
// values override the file's top-level ones. Resolution goes through
// spf13/viper, and every resolved value remembers where it came from, so
// `fibe config list` and `fibe auth status` can say.
//
// API keys are not settings: `fibe auth login` stores them per profile and
// API origin in the OS keyring (zalando/go-keyring), or, where there is no
// keyring (a headless Linux box, a container, or FIBE_NO_KEYRING set), in a
// credentials file only its owner can read (mode 0600). A key given with
// --api-key or FIBE_API_KEY wins over a stored one and is never written
// anywhere.
package config
