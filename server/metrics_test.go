package server

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
)

// TestChildrenByProfile: /metrics splits the children by memory profile,
// so an operator sees which profile is busy and which is kept warm.
func TestChildrenByProfile(t *testing.T) {
	d := startDaemon(t, nil)
	// A memory limit outside the default profile: its own bucket.
	const mem = 32 << 20
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	body := fmt.Sprintf(`{"code":"for(;;){}","limits":{"timeout_ms":20000,"memory_bytes":%d}}`, mem)
	req, _ := http.NewRequestWithContext(ctx, "POST", d.url+"/v1/executions", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+acmeToken)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	busy := fmt.Sprintf(`warden_profile_children{language="javascript",memory_bytes="%d",state="busy"}`, mem)
	waitFor(t, 10*time.Second, "a busy child in the 32 MiB profile", func() bool { return d.metric(t, busy) == 1 })
	def := contract.DefaultLimits.MemoryBytes
	if v := d.metric(t, fmt.Sprintf(`warden_profile_children{language="javascript",memory_bytes="%d",state="busy"}`, def)); v != 0 {
		t.Errorf("busy children of the default profile = %v, want 0", v)
	}
	waitFor(t, 10*time.Second, "the default profile's idle children", func() bool {
		return d.metric(t, fmt.Sprintf(`warden_profile_children{language="javascript",memory_bytes="%d",state="idle"}`, def)) >= 1
	})
	cancel()
	<-done
	waitFor(t, 10*time.Second, "the 32 MiB profile to have no busy child", func() bool { return d.metric(t, busy) == 0 })
}
