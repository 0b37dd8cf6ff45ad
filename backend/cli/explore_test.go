package cli

import (
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
)

func TestExplore(t *testing.T) {
	cmds := os.Getenv("EXPLORE")
	if cmds == "" {
		t.Skip()
	}
	mux := http.NewServeMux()
	mux.Handle("/py/", http.StripPrefix("/py", http.FileServer(http.Dir("/usr/share/doc/python3.11/html"))))
	mux.Handle("/dr/", http.StripPrefix("/dr", http.FileServer(http.Dir("/usr/share/debian-reference"))))
	mux.Handle("/mg/", http.StripPrefix("/mg", http.FileServer(http.Dir("/usr/share/doc/maint-guide/html"))))
	mux.Handle("/bash/", http.StripPrefix("/bash", http.FileServer(http.Dir("/usr/share/doc/bash"))))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	l := startListener(t, srv.URL+os.Getenv("EXPLORE_START"))
	for _, c := range strings.Split(cmds, ";") {
		c = strings.ReplaceAll(c, "SRV", srv.URL)
		a := l.say(c)
		os.Stdout.WriteString("> " + c + "\n" + a + "\n")
	}
}
