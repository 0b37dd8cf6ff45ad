package web

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

// Lang is the language a listener speaks to the number browser: every answer
// and error comes back in the language of the command.
type Lang string

// The languages of the number commands.
const (
	English Lang = "en"
	Russian Lang = "ru"
)

// LangOf is Russian for a line with a Cyrillic letter, else English.
func LangOf(s string) Lang {
	for _, r := range s {
		if unicode.Is(unicode.Cyrillic, r) {
			return Russian
		}
	}
	return English
}

// t picks the sentence of the language.
func (l Lang) t(en, ru string) string {
	if l == Russian {
		return ru
	}
	return en
}

// f is t with fmt.Sprintf.
func (l Lang) f(en, ru string, a ...any) string { return fmt.Sprintf(l.t(en, ru), a...) }

// helpLines are the help, a few commands to a line; every example in square
// brackets is a command that works as written (TestHelpExamplesWork runs
// them all, in both languages).
var helpLines = []struct{ en, ru string }{
	{"Number commands:", "Команды по номерам:"},
	{"[list]: the numbered elements, 50 at a time; [more]: the next ones of whatever was listed last; [list 51]; [list from here].",
		"[список]: элементы с номерами, по 50; [ещё]: следующие из того, что перечислено последним; [список 51]; [список отсюда]."},
	{"[click 5], [type 3 hello], [select 7 Kazan], [press Enter], [upload 2 /home/me/file.pdf], [download 6].",
		"[нажми 5], [введи 3 привет], [выбери 7 Казань], [клавиша ввод], [загрузи 2 /home/me/файл.pdf], [скачай 6]."},
	{"[read page]: title, headings, the start of the text; [read more]; [read from here]; [read from heading 3]; [read from start]; [more headings].",
		"[прочитай страницу]: название, заголовки, начало текста; [читай дальше]; [читай отсюда]; [читай с заголовка 3]; [читай с начала]; [ещё заголовки]."},
	{"[find search]: which numbers have that word. [scroll down], [scroll up], [scroll top], [scroll bottom], [scroll to 12].",
		"[найди поиск]: у каких номеров есть это слово. [прокрути вниз], [прокрути вверх], [прокрути наверх], [прокрути в конец], [прокрути к 12]."},
	{"[back], [forward], [reload], [go to example.org] or the address alone. [tabs], [tab 2], [open 4 in new tab], [close tab]. [show numbers], [hide numbers].",
		"[назад], [вперёд], [обнови], [перейди на example.org] или просто адрес. [вкладки], [вкладка 2], [открой 4 в новой вкладке], [закрой вкладку]. [покажи номера], [скрой номера]."},
}

var helpExample = regexp.MustCompile(`\[([^\]]+)\]`)

// Help is the help a listener hears for "help", in l.
func Help(l Lang) string {
	lines := make([]string, len(helpLines))
	for i, h := range helpLines {
		lines[i] = helpExample.ReplaceAllString(l.t(h.en, h.ru), "$1")
	}
	return strings.Join(lines, "\n")
}

// HelpExamples are the commands the help gives as examples, in each
// language: data the help is written with (TestHelpExamplesWork says each
// one through the terminal's door), made once when the program starts.
var HelpExamples = map[Lang][]string{English: helpExamples(English), Russian: helpExamples(Russian)}

func helpExamples(l Lang) []string {
	var out []string
	for _, h := range helpLines {
		for _, m := range helpExample.FindAllStringSubmatch(l.t(h.en, h.ru), -1) {
			out = append(out, m[1])
		}
	}
	return out
}

// BrowseCommands is the help in both languages, for a window that shows it
// before anything is said.
var BrowseCommands = Help(English) + "\n" + Help(Russian)

// spokenErrors say the browser tools' errors (written for a model) as a
// listener hears them, in English and Russian.
var spokenErrors = []struct {
	re     *regexp.Regexp
	en, ru string
}{
	{regexp.MustCompile(`^numbering is stale: element (\d+) \((.*)\) is number (\d+) now`), "Element $1 ($2) has moved: it is number $3 now. Say list for the new numbers.", "Элемент $1 ($2) сдвинулся: теперь это номер $3. Скажите «список», чтобы услышать новые номера."},
	{regexp.MustCompile(`^numbering is stale: element (\d+) \((.*)\) is no longer on the page`), "Element $1 ($2) is no longer on the page. Say list for the new numbers.", "Элемента $1 ($2) больше нет на странице. Скажите «список», чтобы услышать новые номера."},
	{regexp.MustCompile(`^numbering is stale.*`), "The page changed since the last list. Say list for the new numbers.", "Страница изменилась после последнего списка. Скажите «список», чтобы услышать новые номера."},
	{regexp.MustCompile(`^no numbering yet.*`), "There are no numbers yet: say list first.", "Номеров ещё нет: сначала скажите «список»."},
	{regexp.MustCompile(`^number (\d+) is not in list \d+ yet: only 1\.\.(\d+) of the page are numbered so far.*`), "Number $1 is not numbered yet: say list $1.", "Номер $1 ещё не назначен: скажите «список $1»."},
	{regexp.MustCompile(`^number (\d+) is not in list \d+ \(it numbers 1\.\.(\d+)\)`), "There is no number $1: the page has $2 elements.", "Номера $1 нет: на странице $2 элементов."},
	{regexp.MustCompile(`^list \d+ has no elements.*`), "This page has no numbered elements: scroll, wait, or go to another page.", "На этой странице нет элементов с номерами: прокрутите, подождите или перейдите на другую страницу."},
	{regexp.MustCompile(`^element (\d+) \((.*)\) is not a text field.*`), "Element $1 ($2) is not a text field: say click $1.", "Элемент $1 ($2) — не поле ввода: скажите «нажми $1»."},
	{regexp.MustCompile(`^element (\d+) \((.*)\) is a list box.*`), "Element $1 ($2) is a list box: say select $1 and the option.", "Элемент $1 ($2) — список выбора: скажите «выбери $1» и вариант."},
	{regexp.MustCompile(`^element (\d+) \((.*)\) is disabled`), "Element $1 ($2) is disabled.", "Элемент $1 ($2) недоступен."},
	{regexp.MustCompile(`^element (\d+) \((.*)\) no longer exists on the page.*`), "Element $1 ($2) is no longer on the page. Say list for the new numbers.", "Элемента $1 ($2) больше нет на странице. Скажите «список», чтобы услышать новые номера."},
	{regexp.MustCompile(`^element (\d+) \((.*)\) is not a link, so it cannot open in a new tab.*`), "Element $1 ($2) is not a link, so it cannot open in a new tab: say click $1.", "Элемент $1 ($2) — не ссылка, в новой вкладке его не открыть: скажите «нажми $1»."},
	{regexp.MustCompile(`^there is no previous page in this tab.*`), "There is no previous page in this tab.", "В этой вкладке нет предыдущей страницы."},
	{regexp.MustCompile(`^there is no next page in this tab.*`), "There is no next page in this tab.", "В этой вкладке нет следующей страницы."},
	{regexp.MustCompile(`^there is no tab (\d+): (.*)`), "There is no tab $1: $2", "Вкладки $1 нет: $2"},
	{regexp.MustCompile(`^tab (\d+) is the only tab; it stays open`), "Tab $1 is the only tab; it stays open.", "Вкладка $1 — единственная; она остаётся открытой."},
	{regexp.MustCompile(`^Nothing answers at (\S+)\.$`), "Nothing answers at $1.", "По адресу $1 никто не отвечает."},
	{regexp.MustCompile(`^There is no site called (\S+): the name is not known\.$`), "There is no site called $1: the name is not known.", "Сайта $1 нет: такое имя неизвестно."},
	{regexp.MustCompile(`^This computer is not connected to a network\.$`), "This computer is not connected to a network.", "Компьютер не подключён к сети."},
	{regexp.MustCompile(`^(\S+) did not answer in time\.$`), "$1 did not answer in time.", "$1 не ответил вовремя."},
	{regexp.MustCompile(`^there is no heading (\d+): the page has (\d+) headings.*`), "There is no heading $1: the page has $2 headings.", "Заголовка $1 нет: на странице $2 заголовков."},
	{regexp.MustCompile(`^this page has no headings.*`), "This page has no headings: say read from start.", "На этой странице нет заголовков: скажите «читай с начала»."},
	{regexp.MustCompile(`^heading (\d+) \((.*)\) is not in the main text of the page.*`), "Heading $1 ($2) is not in the main text of the page (it heads a menu or side panel); its links are in the list.", "Заголовок $1 ($2) не в основном тексте страницы (это меню или боковая панель); его ссылки есть в списке."},
	{regexp.MustCompile(`^the browser could not be started: .*`), "The browser could not be started.", "Браузер не запустился."},
}

// SpokenError says a browser tool's error in l, in the listener's words.
func SpokenError(l Lang, msg string) string {
	msg = strings.TrimSpace(msg)
	for _, e := range spokenErrors {
		if e.re.MatchString(msg) {
			out := e.re.ReplaceAllString(msg, l.t(e.en, e.ru))
			if l == Russian {
				out = strings.ReplaceAll(out, "the tabs are ", "вкладки: ")
			}
			return Spoken(out)
		}
	}
	s := Spoken(msg)
	if l == Russian {
		return "Не получилось: " + s
	}
	if s != "" {
		s = strings.ToUpper(s[:1]) + s[1:]
	}
	return s
}

// roleWords say an element's role as a listener hears it: ARIA's raw names
// (doc-backlink, menuitemcheckbox) in words; in Russian every role.
var roleWords = map[string][2]string{
	"link": {"link", "ссылка"}, "button": {"button", "кнопка"}, "textbox": {"textbox", "поле ввода"}, "searchbox": {"searchbox", "поле поиска"},
	"combobox": {"combobox", "поле со списком"}, "listbox": {"listbox", "список выбора"}, "checkbox": {"checkbox", "флажок"}, "radio": {"radio", "переключатель"},
	"slider": {"slider", "ползунок"}, "spinbutton": {"spinbutton", "числовое поле"}, "media": {"media", "проигрыватель"}, "clickable": {"clickable", "нажимаемый элемент"},
	"menuitem": {"menu item", "пункт меню"}, "menuitemcheckbox": {"menu check box", "флажок меню"}, "menuitemradio": {"menu radio button", "переключатель меню"},
	"tab": {"tab", "вкладка"}, "switch": {"switch", "выключатель"}, "option": {"option", "вариант"}, "treeitem": {"tree item", "пункт дерева"},
	"gridcell": {"cell", "ячейка"}, "row": {"row", "строка"}, "img": {"image", "изображение"}, "dialog": {"dialog", "диалог"},
	"doc-backlink": {"back link", "обратная ссылка"}, "doc-noteref": {"note reference", "ссылка на примечание"}, "doc-biblioref": {"bibliography reference", "ссылка на источник"},
	"doc-glossref": {"glossary reference", "ссылка на глоссарий"}, "doc-pagebreak": {"page break", "разрыв страницы"},
	"region": {"region", "область"}, "navigation": {"navigation", "навигация"}, "banner": {"banner", "шапка"}, "main": {"main", "основное содержимое"},
	"complementary": {"side panel", "боковая панель"}, "contentinfo": {"page footer", "подвал"}, "search": {"search", "поиск"}, "form": {"form", "форма"},
}

// roleIn says role in l: known roles in words, others with dashes as spaces.
func roleIn(l Lang, role string) string {
	if w, ok := roleWords[strings.ToLower(role)]; ok {
		if l == Russian {
			return w[1]
		}
		return w[0]
	}
	return strings.ReplaceAll(strings.TrimPrefix(role, "doc-"), "-", " ")
}
