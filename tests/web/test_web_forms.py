"""The account's forms when the server refuses a submit: what the person typed stays (the name
always; the password when the refusal is about the name, typed again when it is about the
password, as browsers and password managers expect), and the reason is said beside the field it
is about, which takes the focus and is marked for screen readers (aria-invalid, and the reason
tied to it by aria-describedby, announced as an alert). In the three languages."""

from __future__ import annotations

import secrets

import httpx
import pytest

from kit.browser import Pages, catalogue, flatten

pytestmark = pytest.mark.browser

GOOD = "a long passphrase here"


def said(lang: str, key: str, **values: str) -> str:
    text = str(flatten(catalogue(lang))[key])
    for name, value in values.items():
        text = text.replace("{" + name + "}", value)
    return text


def refused(page: object, field: str) -> str:
    """The refusal beside ``field`` (``signup-name``...), checked as a screen reader meets it."""
    from playwright.sync_api import Page  # noqa: PLC0415 (typing only at run time)

    assert isinstance(page, Page)
    error = page.locator(f"#{field}-error")
    error.wait_for()
    assert error.get_attribute("role") == "alert"
    box = page.locator(f"#{field}")
    assert box.get_attribute("aria-invalid") == "true"
    assert box.get_attribute("aria-describedby") == f"{field}-error"
    assert page.evaluate("() => document.activeElement.id") == field, "the field has the focus"
    # beside the field: right below it, not at the top of the page
    field_box, error_box = box.bounding_box(), error.bounding_box()
    assert field_box and error_box and 0 <= error_box["y"] - field_box["y"] <= 120
    assert page.locator(".account-page > .error").count() == 0
    return error.inner_text()


@pytest.mark.parametrize("lang", ["en", "pt", "de"])
def test_a_refused_form_keeps_what_was_typed_and_says_why_beside_the_field(
    pages: Pages, lang: str
) -> None:
    taken = f"taken{secrets.token_hex(3)}"
    made = httpx.post(
        f"{pages.base}/api/accounts",
        json={"name": taken, "password": GOOD},
        headers={"Origin": pages.base},
    )
    assert made.status_code == 201, made.text
    page = pages.open("/account", locale=lang)
    page.wait_for_selector(".account-form.signup")
    name = f"new{secrets.token_hex(3)}"

    # a password too short: the name stays, the password is typed again
    page.fill("#signup-name", name)
    page.fill("#signup-password", "123456")
    page.click(".account-form.signup button[type=submit]")
    text = refused(page, "signup-password")
    assert text.startswith(said(lang, "errors.bad_password", message="").split(":")[0])
    assert page.input_value("#signup-name") == name
    assert page.input_value("#signup-password") == ""

    # a name taken: the name and the good password stay, for the name to be changed alone
    page.fill("#signup-name", taken)
    page.fill("#signup-password", GOOD)
    page.click(".account-form.signup button[type=submit]")
    assert refused(page, "signup-name") == said(lang, "errors.name_taken")
    assert page.locator("#signup-password-error").count() == 0
    assert page.get_attribute("#signup-password", "aria-invalid") == "false"
    assert page.input_value("#signup-name") == taken
    assert page.input_value("#signup-password") == GOOD

    # signing in with a wrong password: the name stays, the reason is beside the password
    page.fill("#signin-name", taken)
    page.fill("#signin-password", "not the password")
    page.click(".account-form.signin button[type=submit]")
    assert refused(page, "signin-password") == said(lang, "errors.bad_login")
    assert page.input_value("#signin-name") == taken
    assert page.input_value("#signin-password") == ""
    # what the sign-up form held is still there, and its refusal gone with the new attempt
    assert page.input_value("#signup-name") == taken
    assert page.locator("#signup-name-error").count() == 0

    # fixed by keyboard alone: the refused field has the focus, type and press Enter
    page.keyboard.type(GOOD)
    page.keyboard.press("Enter")
    page.wait_for_selector(".signed-in")
    # the browser reports each refusal (422, 409, 401) on its console: expected, and only those
    assert all(any(c in e for c in ("401", "409", "422")) for e in pages.errors)
    pages.errors.clear()
