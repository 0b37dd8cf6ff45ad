package characters

import "strings"

// The words around a name that tell a person from a place, in English and
// Russian (normalised: lower case, no accents, ё as е).

func set(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// titles stand before a person's name.
var titles = set(`prince princess count countess general colonel captain major lieutenant doctor dr mr mrs miss monsieur madame mademoiselle mlle
	baron baroness abbe vicomte uncle aunt emperor empress king queen tsar sergeant corporal cornet ensign adjutant lady lord sir father mother
	старый молодой маленькая князь князя князю князем князе княжна княжны княжне княжну княжной княгиня княгини княгине княгиню княгиней
	граф графа графу графом графе графиня графини графине графиню графиней генерал генерала генералу генералом полковник полковника
	капитан капитана майор майора поручик поручика ротмистр ротмистра доктор доктора барон барона баронесса аббат аббата виконт виконта
	мадемуазель мсье месье мосье дядюшка дядюшки тетушка тетушки император императора императрица императрицы государь государя
	юнкер юнкера прапорщик прапорщика фельдфебель унтер-офицер корнет корнета адъютант адъютанта господин господина госпожа m-lle mme`)

func titleWord(w string) bool { return titles[w] }

// speech are the verbs that stand next to a speaker's name.
var speech = set(`said says say asked asks replied replies answered answers cried cries exclaimed shouted whispered muttered remarked added
	continued began thought called interrupted observed repeated rejoined inquired murmured screamed shrieked sighed laughed smiled went
	sobbed wept cries cried answered ran came looked glanced turned nodded blushed frowned kissed embraced
	сказал сказала сказали говорил говорила спросил спросила ответил ответила крикнул крикнула закричал закричала прошептал прошептала
	проговорил проговорила воскликнул воскликнула подумал подумала продолжал продолжала прибавил прибавила заговорил заговорила
	повторил повторила обратился обратилась улыбнулся улыбнулась вскрикнул вскрикнула отвечал отвечала кричал кричала говорит думал думала
	сказал-то начал начала`)

func speechVerb(w string) bool { return speech[w] }

// patronymic tells a Russian patronymic, in Cyrillic or transliterated
// ("Павловна", "Pavlovna", "Ilarionovich").
func patronymic(w string) bool {
	for _, s := range []string{"овна", "овны", "овне", "овну", "овной", "евна", "евны", "евне", "евну", "евной", "ична", "ичны", "ичне", "ичну", "ичной",
		"ович", "овича", "овичу", "овичем", "евич", "евича", "евичу", "евичем", "ьич", "ьича", "еич", "еича", "еичу", "еичем",
		"ovna", "evna", "ovich", "evich", "ichna", "ynich", "inichna", "ilyich", "yevna", "ievna"} {
		if strings.HasSuffix(w, s) && len([]rune(w)) > len([]rune(s))+2 {
			return true
		}
	}
	return false
}

// patronymicKey is a patronymic in one form, for grouping («Павловны» →
// «павловн»).
func patronymicKey(w string) string {
	for _, s := range []string{"овичем", "евичем", "овича", "евича", "овичу", "евичу", "овной", "евной", "ичной", "овна", "овны", "овне", "овну",
		"евна", "евны", "евне", "евну", "ична", "ичны", "ичне", "ичну", "ович", "евич", "ьича", "ьич"} {
		if b, ok := strings.CutSuffix(w, s); ok {
			return b + s[:len("ов")]
		}
	}
	return w
}

// placePrep tells a preposition that puts a place after it («в Москве», "in
// Moscow").
func placePrep(w string, ru bool) bool {
	if ru {
		switch w {
		case "в", "во", "из", "под", "над", "через", "около", "близ":
			return true
		}
		return false
	}
	switch w {
	case "in", "from", "near", "through", "into", "across", "toward", "towards", "at":
		return true
	}
	return false
}

// personPrep tells a Russian preposition that takes a person («у Ростовых»,
// «к Пьеру», «с Наташей»).
func personPrep(w string, ru bool) bool {
	if !ru {
		return false
	}
	switch w {
	case "у", "к", "ко", "с", "со", "при":
		return true
	}
	return false
}

// stopNames are capitalised words that are never a person: days, months,
// nations, God, pronouns, and the like.
var stopNames = set(`i god lord christ saviour heaven monday tuesday wednesday thursday friday saturday sunday
	january february march april may june july august september october november december
	english french russian russians german germans austrian austrians prussian cossack cossacks frenchman frenchmen englishman
	chapter book part epilogue ah oh yes no well mamma papa madame monsieur mon dieu mein
	бог господи господь христос бога богу спаситель январь февраль март апрель май июнь июль август сентябрь октябрь ноябрь декабрь
	понедельник вторник среда четверг пятница суббота воскресенье ах ох да нет ну мама папа maman papa глава том часть эпилог
	французы французов русские немцы немцев казаки
	guards revolution hills hill frenchwoman englishwoman russia france england austria prussia europe italy germany sweden spain poland
	moscow petersburg vienna paris london berlin genoa lucca malta africa asia america
	majesty highness excellency gutenberg gutenberg-tm project ebook величество величества высочество сиятельство превосходительство
	россия россии франция франции англия англии австрия австрии пруссия пруссии европа европы италия италии германия германии
	москва москвы москве петербург петербурга петербурге вена вены париж парижа лондон берлин генуя`)

func stopName(w string) bool { return stopNames[w] || titles[w] || romanNumeral(w) }

// romanNumeral: "iii", "xiv" (a chapter number written in a sentence).
func romanNumeral(w string) bool {
	if w == "" {
		return false
	}
	for _, r := range w {
		if !strings.ContainsRune("ivxlcdm", r) {
			return false
		}
	}
	return true
}
