package browser

import (
	"context"
	"time"

	"github.com/go-rod/rod/lib/proto"
)

// Throttle emulates a slow network on the current tab: added latency and
// download/upload speeds in bytes per second (0 latency and speeds: normal).
func (s *Session) Throttle(ctx context.Context, latency time.Duration, down, up float64) error {
	ctx, unlock, err := s.lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	if latency < 0 || down < 0 || up < 0 {
		return invalid("latency and speeds must not be negative")
	}
	if latency == 0 && down == 0 && up == 0 {
		return proto.NetworkEmulateNetworkConditions{Offline: false, Latency: 0, DownloadThroughput: -1, UploadThroughput: -1}.Call(s.page.Context(ctx))
	}
	return proto.NetworkEmulateNetworkConditions{Latency: float64(latency.Milliseconds()), DownloadThroughput: down, UploadThroughput: up}.Call(s.page.Context(ctx))
}
