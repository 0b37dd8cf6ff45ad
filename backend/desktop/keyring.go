package desktop

import (
	"errors"
	"fmt"
	"time"

	"github.com/zalando/go-keyring"
)

// keyringService and keyringUser name the model server key in the system
// keyring (the freedesktop Secret Service: GNOME Keyring, KWallet, KeePassXC).
const (
	keyringService = "waymark"
	keyringUser    = "model-server-key"
)

// keyringTimeout bounds a keyring call: a session bus without a Secret
// Service may take long to say so, and the window must not hang on it.
const keyringTimeout = 5 * time.Second

// secretService keeps the model server key in the system keyring.
var secretService keyStore = systemKeyring{}

// keyStore is where the model server key lives.
type keyStore interface {
	get() (string, error)
	set(key string) error
	remove() error
}

type systemKeyring struct{}

// bounded runs fn with keyringTimeout.
func bounded[T any](fn func() (T, error)) (T, error) {
	type res struct {
		v   T
		err error
	}
	ch := make(chan res, 1)
	go func() {
		v, err := fn()
		ch <- res{v, err}
	}()
	select {
	case r := <-ch:
		return r.v, r.err
	case <-time.After(keyringTimeout):
		var zero T
		return zero, fmt.Errorf("the system keyring did not answer within %s", keyringTimeout)
	}
}

func (systemKeyring) get() (string, error) {
	return bounded(func() (string, error) { return keyring.Get(keyringService, keyringUser) })
}

func (systemKeyring) set(key string) error {
	_, err := bounded(func() (struct{}, error) { return struct{}{}, keyring.Set(keyringService, keyringUser, key) })
	return err
}

func (systemKeyring) remove() error {
	_, err := bounded(func() (struct{}, error) { return struct{}{}, keyring.Delete(keyringService, keyringUser) })
	if errors.Is(err, keyring.ErrNotFound) {
		return nil
	}
	return err
}
