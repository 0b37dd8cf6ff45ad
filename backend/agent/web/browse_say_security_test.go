package web

import "testing"

// The browser's refusals of issue 32 are said in the listener's language,
// with the number and what the page did.
func TestSecurityRefusalsSpoken(t *testing.T) {
	for _, c := range []struct{ msg, en, ru string }{
		{`the page moved something (button "Buy") over element 1 (button "Cancel order") when the pointer came to it; nothing was pressed (list again to hear the page as it is now)`,
			`The page moved something (button “Buy”) over element 1 (button “Cancel order”) as the pointer came to it: nothing was pressed. Say list to hear the page as it is now.`,
			`Страница подвинула на элемент 1 (кнопка «Cancel order») что-то другое (кнопка «Buy»), когда к нему подошёл указатель: ничего не нажато. Скажите «список», чтобы услышать страницу такой, какая она сейчас.`},
		{`the page changed element 2 (button "Safe action") into (button "Transfer") when the pointer came to it; nothing was pressed (list again to hear the page as it is now)`,
			`The page changed element 2 (button “Safe action”) into (button “Transfer”) as the pointer came to it: nothing was pressed. Say list to hear the page as it is now.`,
			`Страница подменила элемент 2 (кнопка «Safe action») на другой (кнопка «Transfer»), когда к нему подошёл указатель: ничего не нажато. Скажите «список», чтобы услышать страницу такой, какая она сейчас.`},
	} {
		if got := SpokenError(English, c.msg); got != c.en {
			t.Errorf("English:\n got %s\nwant %s", got, c.en)
		}
		if got := SpokenError(Russian, c.msg); got != c.ru {
			t.Errorf("Russian:\n got %s\nwant %s", got, c.ru)
		}
	}
}
