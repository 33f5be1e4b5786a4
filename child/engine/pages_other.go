//go:build !linux

package engine

func untouchedPages([]byte) ([]bool, int, bool) { return nil, 0, false }
