// Command nothing is the floor of a process per execution: a static Go
// binary that starts and exits (tests/floor_test.go).
package main

func main() {}
