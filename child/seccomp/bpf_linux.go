package seccomp

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// bpfAsm assembles a classic-BPF program with forward jumps to labels.
type bpfAsm struct {
	ins    []unix.SockFilter
	labels map[string]int
	jumps  []bpfJump
}

type bpfJump struct {
	at     int
	jt, jf string // "" is the next instruction
}

func (a *bpfAsm) stmt(code uint16, k uint32) {
	a.ins = append(a.ins, unix.SockFilter{Code: code, K: k})
}

// jump adds a conditional jump to the labels jt and jf.
func (a *bpfAsm) jump(code uint16, k uint32, jt, jf string) {
	a.jumps = append(a.jumps, bpfJump{at: len(a.ins), jt: jt, jf: jf})
	a.ins = append(a.ins, unix.SockFilter{Code: code, K: k})
}

func (a *bpfAsm) label(name string) {
	if a.labels == nil {
		a.labels = map[string]int{}
	}
	a.labels[name] = len(a.ins)
}

func (a *bpfAsm) assemble() ([]unix.SockFilter, error) {
	off := func(from int, to string) (int, error) {
		if to == "" {
			return 0, nil
		}
		at, ok := a.labels[to]
		if !ok {
			return 0, fmt.Errorf("child: seccomp: undefined label %q", to)
		}
		d := at - from - 1
		if d < 0 {
			return 0, fmt.Errorf("child: seccomp: backward jump to %q", to)
		}
		return d, nil
	}
	for _, j := range a.jumps {
		t, err := off(j.at, j.jt)
		if err != nil {
			return nil, err
		}
		f, err := off(j.at, j.jf)
		if err != nil {
			return nil, err
		}
		in := &a.ins[j.at]
		if t > 255 || f > 255 {
			return nil, fmt.Errorf("child: seccomp: jump too far at %d", j.at)
		}
		in.Jt, in.Jf = uint8(t), uint8(f)
	}
	if len(a.ins) == 0 || len(a.ins) > 4096 {
		return nil, fmt.Errorf("child: seccomp: program of %d instructions", len(a.ins))
	}
	return a.ins, nil
}
