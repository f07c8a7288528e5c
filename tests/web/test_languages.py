"""D17: the interface languages in Debian's chromium. The plural tables of test_locales.py are
the ones chromium's Intl applies; the formatter picks plural forms, ordinals and number formats;
the browser's preferred language picks the interface language, <html lang> and the title follow
it, and the home screen's picker switches it and remembers it across a reload. The home screen in
every language, and a duel in German, Russian, Kazakh and Uzbek, at 360 px with screenshots under
tests/artifacts/ (lang-*.png): long words wrap instead of widening the page.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.catalogues import (
    CARDINAL,
    CODES,
    LOCALES,
    ORDINAL,
    catalogue,
    client_locales,
    forms,
)
from tests.web.conftest import Live
from tests.web.pages import Shots, new_page
from tests.web.puppets import Puppet

pytestmark = pytest.mark.slow


def open_home(
    browser: Any, live: Live, locale: str = "en-US", width: int = 1000
) -> tuple[Any, Any, list[str]]:
    context, page, errors = new_page(browser, width, 800, locale=locale)
    page.goto(live.url)
    page.wait_for_selector("#play")
    return context, page, errors


def test_d17_the_plural_tables_are_cldrs_as_chromium_applies_them(live: Live, browser: Any) -> None:
    context, page, errors = open_home(browser, live)
    seen = page.evaluate(
        """(codes) => Object.fromEntries(codes.map((code) => {
            const reached = (type) => {
                const rules = new Intl.PluralRules(code, { type });
                const found = new Set(["other"]);
                for (let n = 0; n <= 1000; n++) found.add(rules.select(n));
                return [...found].sort();
            };
            return [code, { cardinal: reached("cardinal"), ordinal: reached("ordinal") }];
        }))""",
        list(CODES),
    )
    for code in CODES:
        assert seen[code]["cardinal"] == sorted(CARDINAL[code]), code
        assert seen[code]["ordinal"] == sorted(ORDINAL[code]), code
    assert not errors, errors
    context.close()


FORMATTER_CHECKS = """async () => {
    const m = await import("/static/strings.js");
    const common = await import("/static/screens/common.js");
    const nick = await import("/static/nickname.js");
    const ru = { one: "{n} жизнь", few: "{n} жизни", many: "{n} жизней", other: "{n} жизни" };
    const pl = { one: "{n} życie", few: "{n} życia", many: "{n} żyć", other: "{n} życia" };
    const uk = { "=1": "{n}-ше", "=2": "{n}-ге", few: "{n}-тє", other: "{n}-те" };
    const only = { one: "one {n}", other: "other {n}" };
    return {
        ru: [0, 1, 2, 4, 5, 11, 12, 21, 22, 25, 101, 111].map((n) => m.format(ru, "", { n }, "ru")),
        pl: [1, 2, 5, 12, 22, 25].map((n) => m.format(pl, "x", { n }, "pl")),
        uk: [1, 2, 3, 4, 13, 23].map((n) => m.format(uk, "place.ordinal", { n }, "uk")),
        id: [1, 2].map((n) => m.format({ other: "{n} nyawa" }, "x", { n }, "id")),
        fallback: m.format(only, "x", { n: 5 }, "pl"),
        place: [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111].map(m.place),
        missing: m.format("{a} and {b}", "x", { a: "A" }),
        numbers: [m.formatNumber(1000), m.formatNumber(12345), m.formatRange(800, 1200)],
        signed: [25, -4, 0, null].map(m.formatSigned),
        unknownKey: m.t("no.such.key"),
        errors: [
            common.errorText({ code: "future_code", status: 409, message: "the server's words" }),
            common.errorText({ code: "not_your_turn", status: 409, message: "it is b's turn" }),
            common.errorText({ code: "wrong_length", status: 422 }, { n: 5 }),
            common.errorText({ code: "network", status: 0, message: "Failed to fetch" }),
            common.errorText(new TypeError("x is undefined")),
        ],
        nicknames: ["ab", "x".repeat(21), "Ace@Home!", "1234", "Good Name"].map(
            nick.nicknameProblem,
        ),
        pick: [
            m.pickLocale("xx", ["ja-JP", "en-GB"]),
            m.pickLocale(null, []),
            m.pickLocale("constructor", ["toString"]),
        ],
    };
}"""


def test_d17_the_formatter_chooses_plural_forms_ordinals_and_number_formats(
    live: Live, browser: Any
) -> None:
    context, page, errors = open_home(browser, live)
    out = page.evaluate(FORMATTER_CHECKS)
    assert out["ru"] == [
        "0 жизней", "1 жизнь", "2 жизни", "4 жизни", "5 жизней", "11 жизней", "12 жизней",
        "21 жизнь", "22 жизни", "25 жизней", "101 жизнь", "111 жизней",
    ]  # fmt: skip
    assert out["pl"] == ["1 życie", "2 życia", "5 żyć", "12 żyć", "22 życia", "25 żyć"]
    assert out["uk"] == ["1-ше", "2-ге", "3-тє", "4-те", "13-те", "23-тє"]
    assert out["id"] == ["1 nyawa", "2 nyawa"]
    assert out["fallback"] == "other 5"  # a category the message lacks falls back to "other"
    assert out["place"] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th",
        "21st", "22nd", "23rd", "101st", "111th",
    ]  # fmt: skip
    assert out["missing"] == "A and {b}"
    assert out["numbers"] == ["1000", "12,345", "800–1200"]
    assert out["signed"] == ["+25", "−4", "±0", "—"]
    assert out["unknownKey"] == "no.such.key"
    assert out["pick"] == ["en", "en", "en"]
    # API errors: our message for every known code, the server's own for an unknown one.
    assert out["errors"] == [
        "the server's words",
        "Wait for your turn",
        "The word has 5 letters",
        "No connection. Check your network and try again.",
        "Something went wrong. Please try again.",
    ]
    # R25: a refused nickname says which rule it breaks.
    assert out["nicknames"] == [
        "A nickname has 3 to 20 characters.",
        "A nickname has 3 to 20 characters.",
        "A nickname can't contain @ ! — only letters, digits, spaces and _ - .",
        "A nickname needs at least one letter.",
        None,
    ]
    assert not errors, errors
    context.close()


def test_d17_html_lang_and_the_title_follow_the_interface_language(
    live: Live, browser: Any, artifacts: Path
) -> None:
    # A browser in a language the game does not speak gets English.
    context, page, errors = open_home(browser, live, locale="ja-JP")
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.title() == "Wordle Tournament"
    assert page.locator("#interface-language").input_value() == "en"
    assert page.locator("#play").inner_text() == "Play"
    assert page.locator("#rules li").count() == 9
    assert not errors, errors
    context.close()


def no_overflow(page: Any, where: str, width: int = 360) -> None:
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"{where} is {scroll} px wide"
    # Nothing visible sticks out of the viewport either (a clipped word is as bad as a scroll).
    wide = page.evaluate(
        """(width) => [...document.querySelectorAll('main *, header *')]
            .filter((el) => el.getClientRects().length && !el.closest('.sr-only, .board, .lives'))
            .filter((el) => {
                const r = el.getBoundingClientRect();
                return r.right > width + 1 || r.left < -1;
            })
            .map((el) => `${el.tagName}.${el.className}: ${el.textContent.slice(0, 40)}`)""",
        width,
    )
    assert wide == [], f"{where}: {wide}"


@pytest.mark.parametrize("code", LOCALES)
def test_d17_the_home_screen_speaks_each_language_at_360_px(
    live: Live, browser: Any, artifacts: Path, code: str
) -> None:
    messages = catalogue(code)
    context, page, errors = open_home(browser, live, locale=code, width=360)
    assert page.evaluate("document.documentElement.lang") == code
    assert page.title() == messages["app.title"]
    assert page.locator("#interface-language").input_value() == code
    assert page.locator("#play").inner_text() == messages["home.play"]
    assert page.locator("label[for=language]").inner_text().casefold() == (
        messages["home.language"].casefold()
    )
    page.click(".rules summary")
    rules = page.locator("#rules li").all_inner_texts()
    assert rules == [messages[f"home.rules.{i}"] for i in range(1, 10)]
    no_overflow(page, f"home in {code}")
    page.screenshot(path=str(artifacts / f"lang-{code}-home.png"), full_page=True)
    assert not errors, errors
    context.close()


DUEL_LANGUAGES = ["de", "ru", "kk", "uz"]


@pytest.mark.parametrize("code", DUEL_LANGUAGES)
def test_d17_a_duel_speaks_the_interface_language_at_360_px(
    live: Live, browser: Any, artifacts: Path, code: str
) -> None:
    messages = catalogue(code)
    context, page, errors = new_page(browser, 360, 740, locale=code)
    shot = Shots(page, artifacts, f"lang-{code}")
    page.goto(live.url)
    page.wait_for_selector("#play")
    page.select_option("#language", code)  # words in the same language, its own keyboard
    page.click("#play")
    page.wait_for_selector("#seats")
    no_overflow(page, f"lobby in {code}")
    shot("lobby")

    page.wait_for_selector("#intro", timeout=30_000)
    assert page.locator("#intro .count-label").text_content() == messages["intro.starts"]
    no_overflow(page, f"intro in {code}")
    shot("intro")

    page.wait_for_selector("#duel #keyboard", timeout=30_000)
    chip = page.locator("#word-length").inner_text()
    assert chip in {
        text.replace("{n}", str(n)) for n in (4, 5, 6) for text in forms(messages["duel.letters"])
    }
    assert page.locator("#board").get_attribute("aria-label") == messages["duel.board"]
    page.wait_for_selector("#duel.my-turn", timeout=30_000)
    assert page.locator("#turn-text").inner_text() == messages["duel.yourTurn"]
    page.keyboard.press("Enter")  # nothing typed: the message says so in the language
    page.wait_for_selector("#duel-message.show")
    assert page.locator("#duel-message").inner_text() == messages["duel.tooShort"]
    no_overflow(page, f"duel in {code}")
    shot("duel")

    # Leaving asks first (in the language), then counts as a loss (R20).
    page.click("#t-leave")
    page.wait_for_selector("#leave-dialog")
    assert page.locator("#leave-dialog-title").inner_text() == messages["t.leave.title"]
    assert page.locator("#leave-dialog-text").inner_text() == messages["t.leave.confirm"]
    no_overflow(page, f"the question before leaving in {code}")
    page.click("#leave-dialog-yes")
    page.wait_for_selector("#out")
    assert page.locator("#out .out-card h2").inner_text() == messages["out.left"]
    no_overflow(page, f"out in {code}")
    shot("left")
    # The results in these languages, at 360 px: tests/web/test_story.py (a tournament the test
    # plays to its end at once, instead of waiting here for the bots to finish one).
    assert not errors, errors
    context.close()


def test_d17_a_browser_that_prefers_uk_ua_gets_ukrainian(live: Live, browser: Any) -> None:
    messages = catalogue("uk")
    context, page, errors = open_home(browser, live, locale="uk-UA")
    assert page.evaluate("navigator.language") == "uk-UA"
    assert page.evaluate("document.documentElement.lang") == "uk"
    assert page.title() == messages["app.title"] == "Wordle Tournament"  # the brand stands alone
    assert page.locator("#interface-language").input_value() == "uk"
    assert page.locator("#play").inner_text() == messages["home.play"]
    # The word language is a separate choice: the browser's language does not set it to "uk"
    # through the interface picker, and changing it leaves the interface alone.
    page.select_option("#language", "en")
    assert page.evaluate("document.documentElement.lang") == "uk"
    assert not errors, errors
    context.close()


def test_d17_the_first_of_the_preferred_languages_that_the_game_speaks_wins(
    live: Live, browser: Any
) -> None:
    context, page, errors = new_page(browser, 1000, 800, locale="sv-SE")
    page.add_init_script(
        "Object.defineProperty(navigator, 'languages',"
        " { get: () => ['sv-SE', 'ja', 'ru-RU', 'de'] })"
    )
    page.goto(live.url)
    page.wait_for_selector("#play")
    assert page.evaluate("document.documentElement.lang") == "ru"
    assert page.locator("#play").inner_text() == catalogue("ru")["home.play"]
    assert not errors, errors
    context.close()


def test_d17_the_picker_switches_the_language_and_the_choice_survives_a_reload(
    live: Live, browser: Any, artifacts: Path
) -> None:
    context, page, errors = open_home(browser, live, locale="en-US")
    words_before = page.locator("#language").input_value()
    options = page.locator("#interface-language option")
    # Each language in its own name, tagged with its language for screen readers.
    assert options.all_inner_texts() == list(client_locales().values())
    assert options.evaluate_all("(all) => all.map((o) => o.lang)") == list(client_locales())
    page.focus("#interface-language")  # as a keyboard user would
    page.select_option("#interface-language", "ru")
    ru = catalogue("ru")
    page.wait_for_function(
        f"() => document.getElementById('play')?.textContent === {ru['home.play']!r}"
    )
    assert page.evaluate("document.documentElement.lang") == "ru"
    assert page.title() == ru["app.title"]
    assert page.locator(".brand-name").inner_text() == ru["app.title"]
    assert page.evaluate("localStorage.getItem('wt.ui')") == "ru"
    assert page.evaluate("document.activeElement.id") == "interface-language"
    assert page.locator("#language").input_value() == words_before  # words untouched
    page.screenshot(path=str(artifacts / "lang-picker-ru.png"))

    page.reload()
    page.wait_for_selector("#play")
    assert page.locator("#play").inner_text() == ru["home.play"]
    assert page.evaluate("document.documentElement.lang") == "ru"
    assert page.locator("#interface-language").input_value() == "ru"

    # And back: the saved choice beats the browser's own language (English here).
    page.select_option("#interface-language", "en")
    page.wait_for_function("() => document.getElementById('play')?.textContent === 'Play'")
    page.reload()
    page.wait_for_selector("#play")
    assert page.evaluate("document.documentElement.lang") == "en"
    assert not errors, errors
    context.close()


def test_r25_a_refused_nickname_is_explained_in_the_players_language(
    live: Live, browser: Any, artifacts: Path
) -> None:
    de = catalogue("de")
    context, page, errors = open_home(browser, live, locale="de-DE", width=360)
    page.click("#edit-nickname")
    assert page.locator("#nickname-rules").inner_text() == de["nickname.rules"]["other"].format(
        min=3, n=20
    )
    page.fill("#nickname-input", "ab")
    page.keyboard.press("Enter")
    page.wait_for_selector("#toast.show.error")
    assert page.locator("#toast").inner_text() == de["nickname.length"]["other"].format(min=3, n=20)
    page.fill("#nickname-input", "Ace@Home")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => document.getElementById('toast').textContent.includes('@')", timeout=5_000
    )
    assert page.locator("#toast").inner_text() == de["nickname.characters"].format(chars="@")
    page.screenshot(path=str(artifacts / "lang-de-nickname-refused.png"))
    # The refusals are 422s in the console; nothing else may go wrong.
    assert all("status of 422" in e for e in errors), errors
    context.close()


def test_r25_every_refusal_says_its_own_reason_and_a_new_name_shows_in_the_avatar(
    quiet: Live, browser: Any, artifacts: Path
) -> None:
    de = catalogue("de")
    context, page, errors = new_page(browser, 360, 740, locale="de-DE")
    page.goto(quiet.url)
    page.wait_for_selector("#play")

    def rename(name: str) -> None:
        page.click("#edit-nickname")
        page.fill("#nickname-input", name)
        page.keyboard.press("Enter")

    def refused(name: str, key: str) -> None:
        page.evaluate("document.getElementById('toast').textContent = ''")
        rename(name)
        page.wait_for_function(
            "() => document.getElementById('toast').textContent !== ''", timeout=5_000
        )
        assert page.locator("#toast").inner_text() == de[key], name
        page.keyboard.press("Escape")

    # A new name shows at once, in the avatar's initials too.
    rename("Browser Ace")
    page.wait_for_function(
        "() => document.getElementById('nickname')?.textContent === 'Browser Ace'"
    )
    assert page.locator("#home-avatar").inner_text() == "BA"

    refused("BigFuck", "nickname.blocked")
    refused("Ace\u3164Bob", "nickname.invisible")
    # A look-alike (Cyrillic А) of a group mate's name.
    page.click("#group")
    page.wait_for_selector("#invite-link")
    code = page.locator("#invite-link").input_value().rsplit("/join/", 1)[1]
    friend = Puppet(quiet.url, nickname="Ana Lima")
    friend.call("POST", "/v1/groups/join", {"invite_code": code})
    page.click("#group-home")
    page.wait_for_selector("#play")
    refused("\u0410na Lima", "nickname.lookAlike")
    page.screenshot(path=str(artifacts / "lang-de-nickname-look-alike.png"))
    assert page.locator("#nickname").inner_text() == "Browser Ace"
    # The refusals are 422s in the console; nothing else may go wrong.
    assert all("status of 422" in e for e in errors), errors
    context.close()
