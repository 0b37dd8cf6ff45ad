package desktop

import (
	"sync"
	"testing"

	"github.com/waymark/waymark/app/sample"
)

// TestDesktopSettingsDuringCommand saves the settings (which sets the model the
// commands use) while commands run, as a user does in the window. Under -race
// (build/test.sh runs the suite so) an unguarded model field is a failure.
func TestDesktopSettingsDuringCommand(t *testing.T) {
	a, _ := desktopApp(t, string(sample.Manuscript))
	s, err := a.Settings()
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for k := 0; ; k++ {
			select {
			case <-stop:
				return
			default:
			}
			s.FontSize = 14 + k%4
			if _, err := a.SaveSettings(s); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	for k := 0; k < 10; k++ {
		res, err := a.RunCommand(`find the first mention of "Mira"`)
		if err != nil || res.Answer == "" {
			close(stop)
			wg.Wait()
			t.Fatalf("command during a settings save: %v %+v", err, res)
		}
	}
	close(stop)
	wg.Wait()
	if _, ok := a.model().(interface{ Name() string }); !ok {
		t.Fatal("no model after the saves")
	}
}
