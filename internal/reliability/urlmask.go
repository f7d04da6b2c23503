package reliability

import "strings"

// MaskURL replaces the userinfo of a URL (user and password) with "****":
// "redis://****@host:6379/0". It is the one way a URL that may carry
// credentials is shown (config, the state store, errors). It works on the
// text, never parsing it, so a URL that does not parse is masked too:
// everything between the scheme (and its slashes) and the last "@" is
// masked, even when that is more than the userinfo.
func MaskURL(raw string) string {
	start, at, ok := URLUserinfo(raw)
	if !ok {
		return raw
	}
	return raw[:start] + "****" + raw[at:]
}

// URLUserinfo finds what MaskURL masks: raw[start:at], with raw[at] the
// last "@".
func URLUserinfo(raw string) (start, at int, ok bool) {
	at = strings.LastIndex(raw, "@")
	if at < 0 {
		return 0, 0, false
	}
	if i := strings.Index(raw, ":"); i > 0 && i < at && isScheme(raw[:i]) && strings.HasPrefix(raw[i+1:], "/") {
		start = i + 1
		for start < at && raw[start] == '/' {
			start++
		}
	}
	return start, at, true
}

// MaskURLIn returns text (an error message that may quote raw, or parts of
// it) with raw's credentials masked: raw itself, its userinfo and its
// password, wherever they appear.
func MaskURLIn(text, raw string) string {
	start, at, ok := URLUserinfo(raw)
	if !ok {
		return text
	}
	text = strings.ReplaceAll(text, raw, MaskURL(raw))
	user := raw[start:at]
	_, pw, _ := strings.Cut(user, ":")
	for _, secret := range []string{user, pw} {
		if len(secret) >= 3 {
			text = strings.ReplaceAll(text, secret, "****")
		}
	}
	return text
}

// isScheme reports whether s is a URL scheme (RFC 3986: a letter, then
// letters, digits, "+", "-" or ".").
func isScheme(s string) bool {
	for i, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
		case i > 0 && (r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.'):
		default:
			return false
		}
	}
	return s != ""
}
