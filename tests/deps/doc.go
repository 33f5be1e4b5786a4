// Package deps has no code: its test holds Warden's packages to the
// import rules of ARCHITECTURE.md's package table (which third-party
// modules each package may import, and that the supervisor never links
// the child's engine), and holds the table to what the packages import.
package deps
