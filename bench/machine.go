package main

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// machine describes where a result was measured; a number without it means
// little, so every report starts with it.
type machine struct {
	OS, Arch  string
	CPUs      int
	CPUModel  string
	MemoryGiB float64
	Kernel    string
	GoVersion string
}

func describeMachine() machine {
	return machine{
		OS:        runtime.GOOS,
		Arch:      runtime.GOARCH,
		CPUs:      runtime.NumCPU(),
		CPUModel:  cpuModel(),
		MemoryGiB: memoryGiB(),
		Kernel:    kernelRelease(),
		GoVersion: runtime.Version(),
	}
}

func (m machine) String() string {
	s := fmt.Sprintf("%s/%s, %d CPUs (%s)", m.OS, m.Arch, m.CPUs, m.CPUModel)
	if m.MemoryGiB > 0 {
		s += fmt.Sprintf(", %.1f GiB RAM", m.MemoryGiB)
	}
	if m.Kernel != "" {
		s += ", kernel " + m.Kernel
	}
	return s
}

// cpuModel reads the first "model name" of /proc/cpuinfo; other systems
// report "unknown" rather than guessing.
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "unknown"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(key) == "model name" {
			return strings.TrimSpace(val)
		}
	}
	return "unknown"
}

func memoryGiB() float64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			kb, err := strconv.ParseFloat(fields[1], 64)
			if err == nil {
				return kb / (1024 * 1024)
			}
		}
	}
	return 0
}

func kernelRelease() string {
	b, err := os.ReadFile("/proc/sys/kernel/osrelease")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// loadAverage is the system's load average over 1, 5 and 15 minutes as
// /proc/loadavg gives it ("" where there is none): a wall-clock figure
// means little without how busy the machine was.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], ", ")
}

// realTimePolicy describes this process's real-time scheduling (Linux's
// /proc/self/stat: rt_priority and policy, fields 40 and 41), as `chrt -f
// 10 go run ./bench ...` sets it for every child, or "" under the normal
// policy or where it cannot be read.
func realTimePolicy() string {
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return ""
	}
	// The command name, field 2, is in parentheses and may hold spaces.
	_, rest, ok := strings.Cut(string(b), ") ")
	f := strings.Fields(rest)
	if !ok || len(f) < 39 {
		return ""
	}
	prio, policy := f[37], f[38] // fields 40 and 41, counted from 3
	switch policy {
	case "1":
		return "SCHED_FIFO, priority " + prio
	case "2":
		return "SCHED_RR, priority " + prio
	}
	return ""
}
