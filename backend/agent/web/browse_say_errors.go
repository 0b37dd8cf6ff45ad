package web

import (
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"strconv"
	"strings"

	"github.com/waymark/waymark/backend/browser"
)

// A browser tool's error is said by its identity (issue 36 point 2): its
// kind (browser.Error), its type (*browser.StaleError, *browser.NavError)
// or its sentinel (browser.ErrNoList, …), never by the words of its English
// text, which is written for a model and may be reworded.

// sentence is how an error of one kind is said in each language: a format
// over the error's Args (%[1]v is the first), each said in the listener's
// words first (an element's label with its role in words, the tabs).
type sentence struct{ en, ru string }

const (
	sayList    = " Say list for the new numbers."
	sayListRu  = " Скажите «список», чтобы услышать новые номера."
	sayReload  = "; say reload and try again."
	sayReloadR = "; скажите «обнови» и попробуйте ещё раз."
	sayNow     = " Say list to hear the page as it is now."
	sayNowRu   = " Скажите «список», чтобы услышать страницу такой, какая она сейчас."
	sayPick    = ": say list again and pick the file field or its button."
	sayPickRu  = ": снова скажите «список» и выберите поле файла или его кнопку."
)

// sentences say the kinds of browser.Error a listener can meet; a kind not
// here (arguments only a model gives) is said in English as the tool wrote
// it, and in Russian as a command that failed.
var sentences = map[browser.ErrKind]sentence{
	browser.KindStartFailed:        {"The browser could not be started.", "Браузер не запустился."},
	browser.KindListEmpty:          {"This page has no numbered elements: scroll, wait, or go to another page.", "На этой странице нет элементов с номерами: прокрутите, подождите или перейдите на другую страницу."},
	browser.KindNotNumberedYet:     {"Number %[1]v is not numbered yet: say list %[1]v.", "Номер %[1]v ещё не назначен: скажите «список %[1]v»."},
	browser.KindNotNumbered:        {"There is no number %[1]v: the page has %[3]v {element|elements}.", "Номера %[1]v нет: на странице %[3]v {элемент|элемента|элементов}."},
	browser.KindListChanged:        {"Element %[1]v (%[3]v) is no longer on the page (or is there more than once)." + sayList, "Элемента %[1]v (%[3]v) больше нет на странице (или он там не один)." + sayListRu},
	browser.KindGone:               {"Element %[1]v (%[2]v) is no longer on the page." + sayList, "Элемента %[1]v (%[2]v) больше нет на странице." + sayListRu},
	browser.KindDisabled:           {"Element %[1]v (%[2]v) is disabled.", "Элемент %[1]v (%[2]v) недоступен."},
	browser.KindUnreachable:        {"Element %[1]v (%[2]v) cannot be reached (%[3]v): scroll, or say list again.", "До элемента %[1]v (%[2]v) не добраться: прокрутите страницу или снова скажите «список»."},
	browser.KindNoScroll:           {"Element %[1]v (%[2]v) could not be scrolled into view.", "Элемент %[1]v (%[2]v) не прокручивается в видимую часть страницы."},
	browser.KindCoveredBy:          {"Element %[1]v (%[2]v) is covered by something else (%[3]v): press Escape, scroll, or say list again.", "Элемент %[1]v (%[2]v) закрыт чем-то другим (%[3]v): скажите «клавиша эскейп», прокрутите страницу или снова скажите «список»."},
	browser.KindCoveredByOverFrame: {"Element %[1]v (%[2]v) is covered by something else (%[3]v): press Escape, scroll, or say list again.", "Элемент %[1]v (%[2]v) закрыт чем-то другим (%[3]v): скажите «клавиша эскейп», прокрутите страницу или снова скажите «список»."},
	browser.KindCovered:            {"The page moved something (%[1]v) over element %[2]v (%[3]v) as the pointer came to it: nothing was pressed." + sayNow, "Страница подвинула на элемент %[2]v (%[3]v) что-то другое (%[1]v), когда к нему подошёл указатель: ничего не нажато." + sayNowRu},
	browser.KindRenamed:            {"The page changed element %[1]v (%[2]v) into (%[3]v) as the pointer came to it: nothing was pressed." + sayNow, "Страница подменила элемент %[1]v (%[2]v) на другой (%[3]v), когда к нему подошёл указатель: ничего не нажато." + sayNowRu},
	browser.KindKeptMoving:         {"Element %[1]v (%[2]v) kept moving as the pointer came to it: nothing was pressed. Try again, or say list.", "Элемент %[1]v (%[2]v) всё время сдвигался, когда к нему подходил указатель: ничего не нажато. Попробуйте ещё раз или скажите «список»."},
	browser.KindOtherSitePassword: {"Element %[1]v (%[2]v) is a password field in a frame from %[3]v, another site than this page: what you type there goes to %[3]v. Nothing was typed. To type it there all the same, say the same command again.",
		"Элемент %[1]v (%[2]v) — поле пароля в рамке с сайта %[3]v, это другой сайт, не эта страница: то, что вы введёте, уйдёт на %[3]v. Ничего не введено. Чтобы всё же ввести туда, повторите ту же команду."},
	browser.KindNotTextField:    {"Element %[1]v (%[2]v) is not a text field: say click %[1]v.", "Элемент %[1]v (%[2]v) — не поле ввода: скажите «нажми %[1]v»."},
	browser.KindIsListBox:       {"Element %[1]v (%[2]v) is a list box: say select %[1]v and the option.", "Элемент %[1]v (%[2]v) — список выбора: скажите «выбери %[1]v» и вариант."},
	browser.KindTypeFailed:      {"Could not type into element %[1]v (%[2]v).", "Не удалось ввести текст в элемент %[1]v (%[2]v)."},
	browser.KindNotListBox:      {"Element %[1]v (%[2]v) is not a list box: click it, say list again and click the option's number.", "Элемент %[1]v (%[2]v) — не список выбора: нажмите его, снова скажите «список» и нажмите номер варианта."},
	browser.KindAmbiguousOption: {"“%[1]v” matches several options of element %[2]v: %[3]v. Say the whole option.", "«%[1]v» подходит к нескольким вариантам элемента %[2]v: %[3]v. Скажите вариант целиком."},
	browser.KindNoOption:        {"Element %[1]v (%[2]v) has no option “%[3]v”. Its options: %[4]v.", "У элемента %[1]v (%[2]v) нет варианта «%[3]v». Его варианты: %[4]v."},
	browser.KindOptionDisabled:  {"Option “%[1]v” of element %[2]v is disabled.", "Вариант «%[1]v» элемента %[2]v недоступен."},
	browser.KindFrameKeptMoving: {"Element %[1]v (%[2]v) kept moving with its frame (scrolling or an animation): try again, or scroll to it first.", "Элемент %[1]v (%[2]v) всё время сдвигается вместе со своей рамкой (прокрутка или анимация): попробуйте ещё раз или сначала прокрутите к нему."},
	browser.KindFrameParentGone: {"The frame of element %[1]v (%[2]v) is no longer on the page." + sayList, "Рамки элемента %[1]v (%[2]v) больше нет на странице." + sayListRu},
	browser.KindFrameGone:       {"The frame of element %[1]v (%[2]v) is no longer on the page." + sayList, "Рамки элемента %[1]v (%[2]v) больше нет на странице." + sayListRu},
	browser.KindOutsideFrame:    {"Element %[1]v (%[2]v) is outside the visible part of its frame: scroll to it, or say list again.", "Элемент %[1]v (%[2]v) вне видимой части своей рамки: прокрутите к нему или снова скажите «список»."},
	browser.KindNoBack:          {"There is no previous page in this tab.", "В этой вкладке нет предыдущей страницы."},
	browser.KindNoForward:       {"There is no next page in this tab.", "В этой вкладке нет следующей страницы."},
	browser.KindURLEmpty:        {"The address is empty.", "Адрес пуст."},
	browser.KindURLScheme:       {"“%[1]v” cannot be opened: only http, https and file addresses can.", "«%[1]v» не открыть: открываются только адреса http, https и file."},
	browser.KindURLPartial:      {"“%[1]v” is not a whole address: say it like go to https://example.org.", "«%[1]v» — не полный адрес: скажите, например, «перейди на https://example.org»."},
	browser.KindURLNoHost:       {"“%[1]v” names no site.", "В адресе «%[1]v» нет имени сайта."},
	browser.KindURLBad:          {"“%[1]v” is not an address.", "«%[1]v» — не адрес."},
	browser.KindURLPassword: {"This address carries what was typed into a password field: a password is never sent in an address. Open the page without it.",
		"В этом адресе есть то, что введено в поле пароля: пароль никогда не отправляется в адресе. Откройте страницу без него."},
	browser.KindLinkPassword:      {"Link %[1]v carries what was typed into a password field: it is not opened.", "В ссылке %[1]v есть то, что введено в поле пароля: она не открывается."},
	browser.KindNotGranted:        {"%[2]v is not opened: local files are opened only when you name them yourself.", "%[2]v не открыт: локальные файлы открываются, только когда вы сами их назвали."},
	browser.KindNavSlow:           {"%[1]v did not answer in time.", "%[1]v не ответил вовремя."},
	browser.KindOpenFailed:        {"Could not open %[1]v.", "Не удалось открыть %[1]v."},
	browser.KindNoTab:             {"There is no tab %[1]v: %[2]v", "Вкладки %[1]v нет: %[2]v"},
	browser.KindNoTabTitled:       {"No tab's title has “%[1]v”: %[2]v", "Ни в одном названии вкладки нет «%[1]v»: %[2]v"},
	browser.KindNoTabToClose:      {"There is no tab to close.", "Закрывать нечего: вкладок нет."},
	browser.KindOnlyTab:           {"Tab %[1]v is the only tab; it stays open.", "Вкладка %[1]v — единственная; она остаётся открытой."},
	browser.KindTabsFrom1:         {"Tabs count from 1: say tab 1.", "Вкладки считаются с 1: скажите «вкладка 1»."},
	browser.KindNotALink:          {"Element %[1]v (%[2]v) is not a link, so it cannot open in a new tab: say click %[1]v.", "Элемент %[1]v (%[2]v) — не ссылка, в новой вкладке его не открыть: скажите «нажми %[1]v»."},
	browser.KindLinkActedHere:     {"Link %[1]v (%[2]v) has no address and opened no tab: it acted in this tab instead (the page changed: say list).", "У ссылки %[1]v (%[2]v) нет адреса, и новая вкладка не открылась: она сработала в этой вкладке (страница изменилась: скажите «список»)."},
	browser.KindLinkNoTab:         {"Link %[1]v (%[2]v) has no address and opened no tab: say click %[1]v instead.", "У ссылки %[1]v (%[2]v) нет адреса, и новая вкладка не открылась: скажите «нажми %[1]v»."},
	browser.KindNewTabFailed:      {"Could not open a new tab.", "Не удалось открыть новую вкладку."},
	browser.KindSwitchFailed:      {"Could not switch to the tab.", "Не удалось перейти на вкладку."},
	browser.KindTabHeld:           {"Tab %[1]v does not answer: its page is held, most likely by a question it asked before Waymark could read it. Say close tab %[1]v, or try again.", "Вкладка %[1]v не отвечает: её страницу держит, скорее всего, вопрос, заданный раньше, чем Waymark смог его прочесть. Скажите «закрой вкладку %[1]v» или попробуйте ещё раз."},
	browser.KindCloseFailed:       {"Could not close tab %[1]v.", "Не удалось закрыть вкладку %[1]v."},
	browser.KindNoHeadings:        {"This page has no headings: say read from start.", "На этой странице нет заголовков: скажите «читай с начала»."},
	browser.KindNoHeading:         {"There is no heading %[1]v: the page has %[2]v {heading|headings}.", "Заголовка %[1]v нет: на странице %[2]v {заголовок|заголовка|заголовков}."},
	browser.KindHeadingsFrom1:     {"Headings count from 1: say read from heading 1.", "Заголовки считаются с 1: скажите «читай с заголовка 1»."},
	browser.KindHeadingNotMain:    {"Heading %[1]v (%[2]v) is not in the main text of the page (it heads a menu or side panel); its links are in the list.", "Заголовок %[1]v (%[2]v) не в основном тексте страницы (это меню или боковая панель); его ссылки есть в списке."},
	browser.KindPastEnd:           {"Character %[1]v is past the end of the text (%[2]v {character|characters}).", "Знак %[1]v — за концом текста (в нём %[2]v {знак|знака|знаков})."},
	browser.KindNoTables:          {"This page has no tables.", "На этой странице нет таблиц."},
	browser.KindNoTable:           {"There is no table %[1]v: the page has %[2]v.", "Таблицы %[1]v нет: на странице их %[2]v."},
	browser.KindTableNoRows:       {"Table %[1]v has no rows below its column names.", "В таблице %[1]v нет строк под названиями столбцов."},
	browser.KindNoRow:             {"There is no row %[1]v: table %[2]v has %[3]v.", "Строки %[1]v нет: в таблице %[2]v их %[3]v."},
	browser.KindNoColumn:          {"There is no column %[1]v: table %[2]v has %[3]v.", "Столбца %[1]v нет: в таблице %[2]v их %[3]v."},
	browser.KindTableFrom1:        {"Tables, rows and columns count from 1.", "Таблицы, строки и столбцы считаются с 1."},
	browser.KindTableMode:         {"Say read row or read column.", "Скажите «прочитай строку» или «прочитай столбец»."},
	browser.KindFindEmpty:         {"Say what to look for: find in text and a word.", "Скажите, что искать: «найди в тексте» и слово."},
	browser.KindFindLong:          {"That is %[1]v {character|characters} long: look for at most %[2]v.", "Это %[1]v {знак|знака|знаков}: искать можно не больше %[2]v."},
	browser.KindOccurrenceFrom1:   {"Occurrences count from 1: say occurrence 3.", "Вхождения считаются с 1: скажите «вхождение 3»."},
	browser.KindNoOccurrence:      {"There is no occurrence %[1]v of “%[2]v”: the page's text holds it %[3]v times.", "Вхождения %[1]v «%[2]v» нет: в тексте страницы их %[3]v."},
	browser.KindPromptOnly:        {"Text answers only a dialog that asks for text; answer this one with OK or Cancel.", "Текст — ответ только на диалог, который просит ввести текст; на этот ответьте «ОК» или «Отмена»."},
	browser.KindDownloadFailed:    {"The download of %[1]v failed or was cancelled; nothing was saved.", "Скачивание %[1]v не удалось или отменено; ничего не сохранено."},
	browser.KindNoDownload:        {"No download started: this element may not download anything.", "Скачивание не началось: похоже, этот элемент ничего не скачивает."},
	browser.KindDownloadSlow:      {"The download of %[1]v did not finish in time.", "Скачивание %[1]v не закончилось вовремя."},
	browser.KindDownloadFolder:    {"The download folder %[1]v cannot be used.", "Папкой загрузок %[1]v воспользоваться нельзя."},
	browser.KindSetDownloadFolder: {"The download folder could not be set.", "Не удалось задать папку загрузок."},
	browser.KindSaveDownload:      {"The download could not be saved as %[1]v.", "Скачанное не удалось сохранить как %[1]v."},
	browser.KindTooManyFiles:      {"There are too many files called %[1]v in %[2]v.", "В папке %[2]v слишком много файлов с именем %[1]v."},
	browser.KindSubmitNoFile:      {"Element %[1]v (%[2]v) sends its form and has no file field" + sayPick, "Элемент %[1]v (%[2]v) отправляет форму, поля файла у него нет" + sayPickRu},
	browser.KindNotFileField:      {"Element %[1]v (%[2]v) is not a file field" + sayPick, "Элемент %[1]v (%[2]v) — не поле файла" + sayPickRu},
	browser.KindNoFileChooser:     {"Element %[1]v (%[2]v) is not a file field" + sayPick, "Элемент %[1]v (%[2]v) — не поле файла" + sayPickRu},
	browser.KindPickerNotField:    {"Element %[1]v (%[2]v) opened a file picker that takes no files.", "Элемент %[1]v (%[2]v) открыл выбор файла, который не принимает файлы."},
	browser.KindOneFile:           {"Element %[1]v (%[2]v) takes one file; %[3]v were given.", "Элемент %[1]v (%[2]v) принимает один файл, а дано %[3]v."},
	browser.KindGiveFiles:         {"The file could not be given to element %[1]v.", "Файл не удалось передать элементу %[1]v."},
	browser.KindWatchChooser:      {"The page's file chooser could not be watched; try again.", "Не удалось дождаться выбора файла на странице; попробуйте ещё раз."},
	browser.KindFileRelative:      {"File “%[1]v”: give its whole path, from /.", "Файл «%[1]v»: нужен полный путь, от /."},
	browser.KindFileStat:          {"File “%[1]v” cannot be read.", "Файл «%[1]v» не читается."},
	browser.KindFileNotRegular:    {"“%[1]v” is not a file (a folder or a device cannot be uploaded).", "«%[1]v» — не файл (папку или устройство загрузить нельзя)."},
	browser.KindFileUnreadable:    {"File “%[1]v” cannot be read.", "Файл «%[1]v» не читается."},
	browser.KindReading:           {"Could not read the page" + sayReload, "Не удалось прочитать страницу" + sayReloadR},
	browser.KindFinding:           {"Could not read the page" + sayReload, "Не удалось прочитать страницу" + sayReloadR},
	browser.KindOverlayBad:        {"The page's list could not be read; say reload, then list.", "Список страницы не прочитался; скажите «обнови», потом «список»."},
	browser.KindFrameChanging:     {"A frame on the page kept changing; try again.", "Рамка на странице всё время менялась; попробуйте ещё раз."},
	browser.KindCallFrameChanging: {"A frame on the page kept changing; try again.", "Рамка на странице всё время менялась; попробуйте ещё раз."},
	browser.KindInstall:           {"The page could not be prepared for reading" + sayReload, "Страницу не удалось подготовить к чтению" + sayReloadR},
	browser.KindBadAnswer:         {"The page could not be prepared for reading" + sayReload, "Страницу не удалось подготовить к чтению" + sayReloadR},
	browser.KindScript:            {"The page's script failed" + sayReload, "Скрипт страницы выдал ошибку" + sayReloadR},
}

// noFile says a file that is not there (the system's fs.ErrNotExist).
var noFile = sentence{"There is no file “%[1]v”.", "Файла «%[1]v» нет."}

// sentinels say the browser's sentinel errors.
var sentinels = []struct {
	err error
	sentence
}{
	{browser.ErrNoBrowser, sentence{"Chromium is not installed, and the browser needs it. Install it with: sudo apt install chromium", "Chromium не установлен, а без него браузер не работает. Установите его командой: sudo apt install chromium"}},
	{browser.ErrNoList, sentence{"There are no numbers yet: say list first.", "Номеров ещё нет: сначала скажите «список»."}},
	{browser.ErrNoDialog, sentence{"No dialog is open on the page.", "На странице нет открытого диалога."}},
	{browser.ErrSessionClosed, sentence{"The browser is closed.", "Браузер закрыт."}},
	{browser.ErrSessionsClosed, sentence{"The browser is closed.", "Браузер закрыт."}},
}

// navSentences say a *browser.NavError by its kind ("other": Could not open).
var navSentences = map[string]sentence{
	"refused": {"Nothing answers at %[1]v.", "По адресу %[1]v никто не отвечает."},
	"unknown": {"There is no site called %[1]v: the name is not known.", "Сайта %[1]v нет: такое имя неизвестно."},
	"offline": {"This computer is not connected to a network.", "Компьютер не подключён к сети."},
	"timeout": {"%[1]v did not answer in time.", "%[1]v не ответил вовремя."},
	"other":   {"Could not open %[1]v (%[2]v).", "Не удалось открыть %[1]v."},
}

// say is s in l over args, each said in l's words.
func (s sentence) say(l Lang, args ...any) string {
	f := l.t(s.en, s.ru)
	if !strings.Contains(f, "%[") {
		// A sentence that names none of the values (fmt would say them
		// as EXTRA).
		return Spoken(f)
	}
	for i, a := range args {
		args[i] = spokenArg(l, a)
	}
	return Spoken(agreeCounts(fmt.Sprintf(f, args...)))
}

// countWord is a number and its noun's forms: {one|other} in English,
// {one|few|many} in Russian ("4 заголовков" was said before).
var countWord = regexp.MustCompile(`(\d+) \{([^{}|]+)\|([^{}|]+)(?:\|([^{}|]+))?\}`)

// agreeCounts puts each {forms} after a number into the form the number
// takes.
func agreeCounts(s string) string {
	return countWord.ReplaceAllStringFunc(s, func(m string) string {
		g := countWord.FindStringSubmatch(m)
		n, _ := strconv.Atoi(g[1])
		word := g[3]
		switch {
		case g[4] != "":
			word = plural(n, g[2], g[3], g[4])
		case n == 1:
			word = g[2]
		}
		return g[1] + " " + word
	})
}

// spokenArg is a value an error names, in l's words: an element's label
// with its role in words and its name in l's quotes, the open tabs.
func spokenArg(l Lang, a any) any {
	switch v := a.(type) {
	case browser.Label:
		return labelIn(l, v)
	case browser.Cover:
		return labelIn(l, v.Label())
	case browser.Tabs:
		return tabsIn(l, v)
	}
	return a
}

func labelIn(l Lang, v browser.Label) string {
	if v.Name == "" {
		if r := strings.ToLower(v.Role); r == "div" || r == "span" {
			return l.t("an unnamed element", "элемент без названия")
		}
		return roleIn(l, v.Role)
	}
	return roleIn(l, v.Role) + l.t(" “", " «") + v.Name + l.t("”", "»")
}

func tabsIn(l Lang, tabs browser.Tabs) string {
	if len(tabs) == 0 {
		return l.t("no tabs are open", "открытых вкладок нет")
	}
	parts := make([]string, len(tabs))
	for i, t := range tabs {
		parts[i] = fmt.Sprintf("%d %s%s%s", t.Index, l.t("“", "«"), t.Title, l.t("”", "»"))
	}
	return l.t("the tabs are ", "вкладки: ") + strings.Join(parts, ", ")
}

// SpokenError says a browser tool's error in l, in the listener's words,
// by what it is (its kind, type or sentinel). An error of another kind is
// said in English as written, and in Russian as a command that failed.
func SpokenError(l Lang, err error) string {
	if err == nil {
		return ""
	}
	if s, ok := spokenKnown(l, err); ok {
		return s
	}
	var be *browser.Error
	msg := err.Error()
	if errors.As(err, &be) {
		msg = be.Message()
	}
	if l == Russian {
		// An error with no Russian words of its own is not read out in
		// English: the listener hears what failed in Russian.
		return "Команда не выполнена: браузер сообщил о неполадке. Скажите «список» или «обнови» и попробуйте ещё раз."
	}
	s := Spoken(strings.TrimSpace(msg))
	if s != "" {
		s = strings.ToUpper(s[:1]) + s[1:]
	}
	return s
}

// spokenKnown says err when it is one the listener has words for.
func spokenKnown(l Lang, err error) (string, bool) {
	for _, s := range sentinels {
		if errors.Is(err, s.err) {
			return s.say(l), true
		}
	}
	var stale *browser.StaleError
	if errors.As(err, &stale) {
		return staleSaid(l, stale), true
	}
	var nav *browser.NavError
	if errors.As(err, &nav) {
		return navSentences[nav.Kind()].say(l, nav.Host(), nav.Reason()), true
	}
	var be *browser.Error
	if !errors.As(err, &be) {
		return "", false
	}
	s, ok := sentences[be.Kind]
	if be.Kind == browser.KindFileStat && errors.Is(be.Err, fs.ErrNotExist) {
		s = noFile
	}
	if !ok {
		return "", false
	}
	return s.say(l, append([]any(nil), be.Args...)...), true
}

// staleSaid says a numbering the page outgrew: the element asked for moved
// or went away, or the page changed.
func staleSaid(l Lang, e *browser.StaleError) string {
	switch {
	case e.Number > 0 && e.Now > 0:
		return sentence{"Element %[1]v (%[2]v) has moved: it is number %[3]v now." + sayList, "Элемент %[1]v (%[2]v) сдвинулся: теперь это номер %[3]v." + sayListRu}.say(l, e.Number, e.Label, e.Now)
	case e.Number > 0:
		return sentence{"Element %[1]v (%[2]v) is no longer on the page." + sayList, "Элемента %[1]v (%[2]v) больше нет на странице." + sayListRu}.say(l, e.Number, e.Label)
	}
	return sentence{"The page changed since the last list." + sayList, "Страница изменилась после последнего списка." + sayListRu}.say(l)
}
