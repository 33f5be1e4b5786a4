//go:build !linux

package engine

func pagemap() any { return nil }

func untouchedPages([]byte) ([]bool, int, bool) { return nil, 0, false }
