package browsertest

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
)

func get(t *testing.T, c *http.Client, u string) (int, string) {
	t.Helper()
	resp, err := c.Get(u)
	if err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// Every start page is served on both sites and renders its template.
func TestSitesServeEveryPage(t *testing.T) {
	s, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !strings.HasPrefix(s.Other.URL, "http://localhost:") || !strings.HasPrefix(s.Main.URL, "http://127.0.0.1:") {
		t.Fatalf("sites on %s and %s", s.Main.URL, s.Other.URL)
	}
	for name, p := range StartPages() {
		for _, base := range []string{s.Main.URL, s.Other.URL} {
			code, body := get(t, http.DefaultClient, base+p)
			if code != 200 || !strings.Contains(body, "<title>") || strings.Contains(body, "<no value>") {
				t.Errorf("%s %s: %d %.200s", name, base+p, code, body)
			}
		}
	}
	_, sidebar := get(t, http.DefaultClient, s.URL("/frames/sidebar"))
	if !strings.Contains(sidebar, s.Other.URL+"/frames/inner") {
		t.Errorf("the sidebar's form frame is not cross-site: %s", sidebar)
	}
	_, links := get(t, http.DefaultClient, s.URL("/links"))
	if n := strings.Count(links, "<a href=\"/links/"); n != 5000 {
		t.Errorf("%d archive links", n)
	}
}

// The server records outcomes: searches, the cart, the order, logins, uploads.
func TestSitesRecordOutcomes(t *testing.T) {
	s, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}

	if _, body := get(t, c, s.URL("/shop/search?q=kettle")); !strings.Contains(body, "Blue kettle") || strings.Contains(body, "Green teapot") {
		t.Errorf("search results: %s", body)
	}
	if resp, err := c.Post(s.URL("/shop/add?id=k1"), "", nil); err != nil || resp.StatusCode != 200 {
		t.Fatalf("add to cart: %v %v", resp, err)
	}
	if _, body := get(t, c, s.URL("/shop/cart")); !strings.Contains(body, "Cart (1)") || !strings.Contains(body, "Checkout") {
		t.Errorf("cart: %s", body)
	}
	resp, err := c.PostForm(s.URL("/shop/order"), url.Values{"name": {"Anna"}, "address": {"Kazan"}, "delivery": {"courier"}})
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("order: %v %v", resp, err)
	}
	if !s.Has("order Anna, Kazan, courier, 1 items") {
		t.Errorf("events %v", s.Events())
	}

	// A wrong password shows the message; the right one reaches the account.
	resp, _ = c.PostForm(s.URL("/login"), url.Values{"user": {"anna"}, "password": {"nope"}})
	b, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(b), "Неверное имя пользователя или пароль") {
		t.Errorf("wrong password page: %s", b)
	}
	if code, body := get(t, c, s.URL("/account")); code != 200 || strings.Contains(body, "Здравствуйте") {
		t.Errorf("the account opened without a login: %s", body)
	}
	resp, _ = c.PostForm(s.URL("/login"), url.Values{"user": {"anna"}, "password": {"correct horse"}})
	b, _ = io.ReadAll(resp.Body)
	if !strings.Contains(string(b), "Здравствуйте, anna") || !s.Has("login failed anna") || !s.Has("login ok anna") {
		t.Errorf("login: %s; events %v", b, s.Events())
	}

	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, _ := mw.CreateFormFile("f", "notes.txt")
	_, _ = fw.Write([]byte("hello"))
	mw.Close()
	if resp, err := c.Post(s.URL("/files/upload"), mw.FormDataContentType(), &buf); err != nil || resp.StatusCode != 200 {
		t.Fatalf("upload: %v %v", resp, err)
	}
	if !s.Has("uploaded notes.txt 5") {
		t.Errorf("events %v", s.Events())
	}
	if _, err := c.PostForm(s.URL("/inject/delete"), nil); err != nil || !s.Has("deleted account") {
		t.Errorf("delete: %v %v", err, s.Events())
	}
	if !s.Contains("Kazan") || s.Contains("correct horse") {
		t.Errorf("events %v", s.Events())
	}
}
