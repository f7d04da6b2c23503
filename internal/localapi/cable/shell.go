package cable

import (
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// lineShell is the small shell the emulator runs behind the terminal
// channel, in place of the SSH session of the real platform. It does the
// line discipline a pseudo-terminal would (echo, backspace, Ctrl-C,
// Ctrl-D on an empty line, CR or LF ends a line) and knows a handful of
// commands: help, echo, ls, pwd, date, env, exit [code]. Anything else
// answers as a shell does (status 127).
//
// Without a tty it neither echoes nor prompts, as `ssh host < script`.
type lineShell struct {
	service    string
	playground string
	tty        bool
	cols, rows int
	now        func() time.Time

	line   []byte
	last   int  // status of the last command
	lastCR bool // the previous byte was a CR: a LF right after it is the same Enter
	esc    int  // 0, or inside an escape sequence (1: after ESC, 2: after ESC [)
}

// shellExit is the end of a shell: its exit code.
type shellExit struct{ code int }

func (sh *lineShell) nl() string {
	if sh.tty {
		return "\r\n"
	}
	return "\n"
}

// greeting is what a fresh interactive session shows first.
func (sh *lineShell) greeting() string {
	if !sh.tty {
		return ""
	}
	return "Connected to " + sh.service + " of playground " + sh.playground + " (emulated shell; type help)" + sh.nl() + sh.prompt()
}

func (sh *lineShell) prompt() string {
	if !sh.tty {
		return ""
	}
	return sh.service + ":/app$ "
}

// feed applies typed input and returns what the terminal shows, and the
// exit when the shell ended.
func (sh *lineShell) feed(data string) (string, *shellExit) {
	var out strings.Builder
	for i := 0; i < len(data); i++ {
		b := data[i]
		cr := sh.lastCR
		sh.lastCR = b == '\r'
		switch {
		case sh.esc == 1:
			sh.esc = 0
			if b == '[' {
				sh.esc = 2
			}
			continue
		case sh.esc == 2:
			if b >= 0x40 && b <= 0x7e {
				sh.esc = 0
			}
			continue
		}
		switch b {
		case 0x1b:
			sh.esc = 1
		case '\n':
			if cr {
				continue
			}
			fallthrough
		case '\r':
			if sh.tty {
				out.WriteString("\r\n")
			}
			line := string(sh.line)
			sh.line = sh.line[:0]
			text, exit := sh.run(line)
			out.WriteString(text)
			if exit != nil {
				return out.String(), exit
			}
			out.WriteString(sh.prompt())
		case 0x03: // Ctrl-C
			sh.line = sh.line[:0]
			sh.last = 130
			if sh.tty {
				out.WriteString("^C" + sh.nl() + sh.prompt())
			}
		case 0x04: // Ctrl-D: end of input on an empty line
			if len(sh.line) == 0 {
				if sh.tty {
					out.WriteString("exit" + sh.nl())
				}
				return out.String(), &shellExit{code: sh.last}
			}
		case 0x7f, 0x08:
			if n := len(sh.line); n > 0 {
				_, size := utf8.DecodeLastRune(sh.line)
				sh.line = sh.line[:n-size]
				if sh.tty {
					out.WriteString("\b \b")
				}
			}
		default:
			if len(sh.line) < 4096 {
				sh.line = append(sh.line, b)
				if sh.tty {
					out.WriteByte(b)
				}
			}
		}
	}
	return out.String(), nil
}

// run runs one command line and returns its output.
func (sh *lineShell) run(line string) (string, *shellExit) {
	args := strings.Fields(line)
	if len(args) == 0 {
		return "", nil
	}
	nl := sh.nl()
	status, out := 0, ""
	switch args[0] {
	case "help":
		out = "commands: help, echo [words], ls, pwd, date, env, exit [code]" + nl
	case "echo":
		out = strings.Join(args[1:], " ") + nl
	case "ls":
		out = strings.Join(filesOf(sh.service), "  ") + nl
	case "pwd":
		out = "/app" + nl
	case "date":
		out = sh.now().UTC().Format("Mon Jan _2 15:04:05 UTC 2006") + nl
	case "env":
		env := []string{"HOME=/app", "PWD=/app", "SERVICE=" + sh.service, "PLAYGROUND=" + sh.playground}
		if sh.tty {
			env = append(env, "TERM=xterm-256color", "COLUMNS="+strconv.Itoa(sh.cols), "LINES="+strconv.Itoa(sh.rows))
		}
		sort.Strings(env)
		out = strings.Join(env, nl) + nl
	case "exit":
		code := sh.last
		if len(args) > 1 {
			n, err := strconv.Atoi(args[1])
			if err != nil {
				return "sh: exit: " + args[1] + ": numeric argument required" + nl, &shellExit{code: 2}
			}
			code = n & 0xff
		}
		return "", &shellExit{code: code}
	default:
		status, out = 127, "sh: "+strings.ToValidUTF8(args[0], "?")+": command not found"+nl
	}
	sh.last = status
	return out, nil
}

// filesOf is the emulated working directory of a service.
func filesOf(service string) []string {
	switch service {
	case "db":
		return []string{"data", "postgresql.conf"}
	case "worker":
		return []string{"Dockerfile", "jobs", "worker.py"}
	}
	return []string{"Dockerfile", "README.md", "app.py", "static"}
}
