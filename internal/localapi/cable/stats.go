package cable

// Stats counts what the server did since it started.
type Stats struct {
	Connections   int `json:"connections"`   // websocket connections accepted
	Open          int `json:"open"`          // connections open now
	Unauthorized  int `json:"unauthorized"`  // upgrade requests answered 401
	Subscriptions int `json:"subscriptions"` // subscriptions confirmed
	Rejections    int `json:"rejections"`    // subscriptions rejected (unknown or by fault)
	Lines         int `json:"lines"`         // log messages sent
	Pings         int `json:"pings"`         // ping frames sent
	Expiries      int `json:"expiries"`      // session_expired messages sent
	Drops         int `json:"drops"`         // connections dropped by fault
	Terminals     int `json:"terminals"`     // terminal sessions opened (subscriptions confirmed)
	Inputs        int `json:"inputs"`        // terminal input messages received
	Outputs       int `json:"outputs"`       // terminal output messages sent
	Exits         int `json:"exits"`         // terminal exit messages sent
}
