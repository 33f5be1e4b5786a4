//go:build wardenfaults

package supervisor

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
)

// A child whose Go side spins, deaf to every deadline, is killed, and
// its envelope has the supervisor's wall time.
func TestRunawayFaultWallTime(t *testing.T) {
	s := newSup(t, nil)
	const timeout = 300 * time.Millisecond
	kills := s.Stats().Kills
	res, err := s.Execute(context.Background(), contract.Request{Code: "//fault:burn",
		Limits: contract.Limits{Timeout: timeout}}, nil)
	if !errors.Is(err, contract.ErrTimeout) {
		t.Fatalf("want TimeoutError, got %v", err)
	}
	if s.Stats().Kills != kills+1 {
		t.Fatal("the burn should have needed the kill")
	}
	checkWall(t, res, timeout, s.cfg.KillGrace)
}
