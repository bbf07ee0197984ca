"""Access contract: users, application passwords and bearer tokens."""

from __future__ import annotations

import re

import pytest

import events_calendar as ec
from events_calendar.errors import (
    AuthenticationFailed,
    Forbidden,
    InvalidParameter,
    NotFound,
)

from .contract_access_base import (
    ROLES,
    AccessContractBase,
    forbidden,
)
from .contract_record_base import snapshot

__all__ = ["UserContract"]


class UserContract(AccessContractBase):
    """Users, their secrets, and who may manage them."""

    # == users ================================================================================
    def test_create_user(self, cal: ec.Calendar) -> None:
        """A user has a login, a role and a display name (the login unless given)."""
        user = cal.users.create("alice", role="editor", email="alice@example.org")
        assert ("alice", "editor", "alice", "alice@example.org") == (
            user.login,
            user.role,
            user.display_name,
            user.email,
        )

    def test_get_user(self, cal: ec.Calendar) -> None:
        """A user is found by login."""
        user = cal.users.create("alice", role="author", display_name="Alice A.")
        assert user == cal.users.get("alice")

    def test_as_user_takes_a_login(self, cal: ec.Calendar) -> None:
        """``as_user`` takes a login as well as a ``User``: the view acts for that user. An
        unknown login is ``NotFound`` and anything else an ``InvalidParameter`` naming
        ``user``, at once; a login used to be taken and fail at the first call with an
        ``AttributeError``."""
        alice = cal.users.create("alice", role="author")
        view = cal.as_user("alice")
        refused = []
        for given in ("ghost", 5, {"login": "alice"}):
            with pytest.raises((NotFound, InvalidParameter)) as info:
                cal.as_user(given)  # type: ignore[arg-type]
            refused.append(type(info.value).__name__)
        made = view.venues.create(venue="Hall")
        assert (alice, alice.id, ["NotFound", "InvalidParameter", "InvalidParameter"]) == (
            view.user,
            made.author,
            refused,
        )

    def test_get_unknown_user_is_not_found(self, cal: ec.Calendar) -> None:
        """An unknown login is ``NotFound`` with code ``user-not-found``."""
        with pytest.raises(NotFound, match="no user 'ghost'") as info:
            cal.users.get("ghost")
        assert ("user-not-found", ["login"]) == (info.value.code, list(info.value.fields))

    def test_list_users_in_creation_order(self, cal: ec.Calendar) -> None:
        """Users are listed in creation order."""
        made = [
            cal.users.create(login, role=role) for login, role in zip("abc", ROLES, strict=False)
        ]
        assert made == cal.users.list()

    @pytest.mark.parametrize("role", ROLES)
    def test_every_role_can_be_given(self, cal: ec.Calendar, role: str) -> None:
        """Each of the five roles can be given to a user."""
        assert role == cal.users.create("someone", role=role).role

    def test_default_role_is_subscriber(self, cal: ec.Calendar) -> None:
        """A user created without a role is a subscriber."""
        assert "subscriber" == cal.users.create("reader").role

    def test_duplicate_login_is_invalid(self, cal: ec.Calendar) -> None:
        """A login can be used once."""
        cal.users.create("alice")
        before = snapshot(cal)
        with pytest.raises(InvalidParameter, match="login") as info:
            cal.users.create("alice", role="editor")
        assert ["login"] == list(info.value.fields)
        assert before == snapshot(cal)

    @pytest.mark.parametrize("again", ["Alice", "ALICE", "alice"])
    def test_a_login_is_taken_whatever_its_case(self, cal: ec.Calendar, again: str) -> None:
        """``Alice`` may not be created beside ``alice``: case is not part of a login, as
        in WordPress, so one user cannot pass for another by its capitals."""
        cal.users.create("alice")
        before = snapshot(cal)
        with pytest.raises(InvalidParameter, match="'alice' is taken") as info:
            cal.users.create(again, role="administrator")
        assert (["login"], before) == (list(info.value.fields), snapshot(cal))

    def test_a_login_is_found_and_signs_in_whatever_its_case(self, cal: ec.Calendar) -> None:
        """``ALICE`` names the user ``alice``: looked up, acted as, and signed in with her
        password (WordPress's ``user_login`` compares without case); ``bob``'s password
        still signs in no one as ``Alice``."""
        alice = cal.users.create("alice", role="author")
        cal.users.create("bob")
        password = cal.users.issue_password("ALICE")
        bobs = cal.users.issue_password("bob")
        assert (alice, alice, alice, "author") == (
            cal.users.get("Alice"),
            cal.users.verify_password("ALICE", password),
            cal.users.verify_password("alice", password),
            cal.as_user("aLiCe").users.get("ALICE").role.value,
        )
        with pytest.raises(AuthenticationFailed):
            cal.users.verify_password("Alice", bobs)

    def test_a_login_with_a_colon_is_refused(self, cal: ec.Calendar) -> None:
        """HTTP Basic ends the login at the first ``:``: such a user was made and could
        never sign in with a password."""
        before = snapshot(cal)
        with pytest.raises(InvalidParameter, match="without ':'") as info:
            cal.users.create("x:y")
        assert (["login"], before) == (list(info.value.fields), snapshot(cal))

    @pytest.mark.parametrize("login", ["", "has space", "   "])
    def test_bad_login_is_invalid(self, cal: ec.Calendar, login: str) -> None:
        """A login must be non-empty and without spaces."""
        before = snapshot(cal)
        with pytest.raises(InvalidParameter, match="login"):
            cal.users.create(login)
        assert before == snapshot(cal)

    @pytest.mark.parametrize("field", ["display_name", "email"])
    def test_a_nul_in_a_users_text_is_invalid(self, cal: ec.Calendar, field: str) -> None:
        """A display name or email holding a NUL character is refused, naming the field, on
        every backend (PostgreSQL raised a raw driver error)."""
        before = snapshot(cal)
        with pytest.raises(InvalidParameter) as info:
            cal.users.create("alice", **{field: "a\x00b"})
        assert ([field], before) == (list(info.value.fields), snapshot(cal))

    def test_a_password_that_is_not_text_is_invalid(self, cal: ec.Calendar) -> None:
        """``verify_password`` with a number names ``password`` (an ``AttributeError``)."""
        cal.users.create("alice")
        with pytest.raises(InvalidParameter) as info:
            cal.users.verify_password("alice", 5)  # type: ignore[arg-type]
        assert ["password"] == list(info.value.fields)

    def test_unknown_role_is_invalid(self, cal: ec.Calendar) -> None:
        """A role outside the five is refused."""
        before = snapshot(cal)
        with pytest.raises(InvalidParameter, match="role") as info:
            cal.users.create("alice", role="superuser")
        assert ["role"] == list(info.value.fields)
        assert before == snapshot(cal)

    def test_remove_user(self, cal: ec.Calendar) -> None:
        """A removed user is gone."""
        cal.users.create("alice")
        removed = cal.users.remove("alice")
        assert ("alice", []) == (removed.login, cal.users.list())

    def test_a_user_rolled_back_leaves_nothing_to_find(self, cal: ec.Calendar) -> None:
        """A user created, or removed, in a transaction that rolls back: its login is then
        free, or signs in still, as before the transaction."""
        cal.users.create("alice")

        def undone() -> None:
            with cal.transaction():
                cal.users.create("bob")
                cal.users.remove("alice")
                raise RuntimeError("roll back")

        with pytest.raises(RuntimeError):
            undone()
        signed_in = cal.as_user("alice").user
        assert (["alice"], "alice") == (
            [u.login for u in cal.users.list()],
            None if signed_in is None else signed_in.login,
        )
        with pytest.raises(NotFound):
            cal.as_user("bob")
        assert "bob" == cal.users.create("bob").login

    def test_remove_unknown_user_is_not_found(self, cal: ec.Calendar) -> None:
        """Removing an unknown login is ``NotFound`` and removes nobody."""
        cal.users.create("alice")
        before = snapshot(cal)
        with pytest.raises(NotFound, match="ghost"):
            cal.users.remove("ghost")
        assert before == snapshot(cal)

    def test_application_password_looks_like_wordpress(self, cal: ec.Calendar) -> None:
        """An application password is six groups of four letters or digits."""
        cal.users.create("alice")
        password = cal.users.issue_password("alice")
        assert re.fullmatch(r"[A-Za-z0-9]{4}( [A-Za-z0-9]{4}){5}", password)

    def test_verify_password(self, cal: ec.Calendar) -> None:
        """The issued password authenticates its user."""
        user = cal.users.create("alice", role="author")
        password = cal.users.issue_password("alice")
        assert user == cal.users.verify_password("alice", password)

    def test_verify_password_ignores_spaces(self, cal: ec.Calendar) -> None:
        """Spaces in an application password do not matter."""
        user = cal.users.create("alice")
        password = cal.users.issue_password("alice")
        assert user == cal.users.verify_password("alice", password.replace(" ", ""))

    def test_wrong_password_fails(self, cal: ec.Calendar) -> None:
        """A wrong password is ``AuthenticationFailed`` (401)."""
        cal.users.create("alice")
        cal.users.issue_password("alice")
        with pytest.raises(AuthenticationFailed, match="not valid") as info:
            cal.users.verify_password("alice", "aaaa bbbb cccc dddd eeee ffff")
        assert ("incorrect_password", 401) == (info.value.code, info.value.http_status)

    def test_password_of_another_user_fails(self, cal: ec.Calendar) -> None:
        """A password authenticates only the user it was issued to."""
        cal.users.create("alice")
        cal.users.create("bob")
        password = cal.users.issue_password("bob")
        with pytest.raises(AuthenticationFailed, match="not valid"):
            cal.users.verify_password("alice", password)

    def test_password_with_unknown_login_fails(self, cal: ec.Calendar) -> None:
        """A password with an unknown login fails."""
        cal.users.create("alice")
        password = cal.users.issue_password("alice")
        with pytest.raises(AuthenticationFailed, match="not valid"):
            cal.users.verify_password("ghost", password)

    def test_every_issued_password_works(self, cal: ec.Calendar) -> None:
        """A user may hold several application passwords at once."""
        user = cal.users.create("alice")
        first = cal.users.issue_password("alice", label="laptop")
        second = cal.users.issue_password("alice", label="phone")
        assert [user, user] == [
            cal.users.verify_password("alice", first),
            cal.users.verify_password("alice", second),
        ]

    def test_verify_token(self, cal: ec.Calendar) -> None:
        """An issued bearer token authenticates its user."""
        user = cal.users.create("alice", role="editor")
        token = cal.users.issue_token("alice")
        assert user == cal.users.verify_token(token)

    def test_wrong_token_fails(self, cal: ec.Calendar) -> None:
        """An unknown token is ``AuthenticationFailed`` (401)."""
        cal.users.create("alice")
        token = cal.users.issue_token("alice")
        with pytest.raises(AuthenticationFailed, match="not valid") as info:
            cal.users.verify_token(token + "x")
        assert ("invalid_token", 401) == (info.value.code, info.value.http_status)

    def test_token_is_not_a_password(self, cal: ec.Calendar) -> None:
        """A bearer token does not work as an application password."""
        cal.users.create("alice")
        token = cal.users.issue_token("alice")
        with pytest.raises(AuthenticationFailed, match="not valid"):
            cal.users.verify_password("alice", token)

    def test_password_is_not_a_token(self, cal: ec.Calendar) -> None:
        """An application password does not work as a bearer token."""
        cal.users.create("alice")
        password = cal.users.issue_password("alice")
        with pytest.raises(AuthenticationFailed, match="not valid"):
            cal.users.verify_token(password.replace(" ", ""))

    def test_removed_user_password_fails(self, cal: ec.Calendar) -> None:
        """Removing a user revokes their application passwords."""
        cal.users.create("alice")
        password = cal.users.issue_password("alice")
        cal.users.remove("alice")
        with pytest.raises(AuthenticationFailed, match="not valid"):
            cal.users.verify_password("alice", password)

    def test_removed_user_token_fails(self, cal: ec.Calendar) -> None:
        """Removing a user revokes their bearer tokens."""
        user = cal.users.create("alice")
        token = cal.users.issue_token("alice")
        cal.users.remove("alice")
        with pytest.raises(AuthenticationFailed, match="not valid"):
            cal.users.verify_token(token)
        assert [] == list(cal.backend.credentials(user.id))

    def test_secrets_are_not_stored_in_clear(self, cal: ec.Calendar) -> None:
        """The backend keeps neither the password nor the token, only digests of them."""
        user = cal.users.create("alice")
        password = cal.users.issue_password("alice", label="laptop")
        token = cal.users.issue_token("alice", label="ci")
        stored = list(cal.backend.credentials(user.id))
        secrets = (password, password.replace(" ", ""), token)
        leaks = [
            secret
            for credential in stored
            for secret in secrets
            if secret in credential.secret_hash or secret in repr(credential)
        ]
        assert ([("password", "laptop"), ("token", "ci")], []) == (
            [(c.kind, c.label) for c in stored],
            leaks,
        )

    def test_issue_password_for_unknown_user_is_not_found(self, cal: ec.Calendar) -> None:
        """Secrets are issued only to existing users."""
        with pytest.raises(NotFound, match="ghost"):
            cal.users.issue_password("ghost")

    def test_administrator_manages_users(self, cal: ec.Calendar) -> None:
        """An administrator may create, list and remove users and issue their secrets."""
        admin = self.user_cal(cal, "administrator", "root")
        bob = admin.users.create("bob", role="editor")
        token = admin.users.issue_token("bob")
        assert (bob, [bob.login, "root"]) == (
            admin.users.verify_token(token),
            sorted(u.login for u in admin.users.list()),
        )

    @pytest.mark.parametrize("role", ROLES[1:])
    def test_only_administrators_create_users(self, cal: ec.Calendar, role: str) -> None:
        """Every other role is ``Forbidden`` (403) to create users."""
        other = self.user_cal(cal, role)
        before = snapshot(cal)
        with pytest.raises(Forbidden, match="may not manage users") as info:
            other.users.create("mallory", role="administrator")
        assert ("rest_forbidden", 403) == forbidden(info.value)
        assert before == snapshot(cal)

    def test_anonymous_cannot_create_users(self, cal: ec.Calendar, anon: ec.Calendar) -> None:
        """Anonymous callers are ``Forbidden`` (401) to create users."""
        before = snapshot(cal)
        with pytest.raises(Forbidden, match="may not manage users") as info:
            anon.users.create("mallory", role="administrator")
        assert ("rest_forbidden", 401) == forbidden(info.value)
        assert before == snapshot(cal)

    def test_editor_cannot_list_users(self, cal: ec.Calendar) -> None:
        """Listing users needs an administrator."""
        editor = self.user_cal(cal, "editor")
        with pytest.raises(Forbidden, match="may not manage users"):
            editor.users.list()

    @pytest.mark.parametrize("role", ROLES[1:])
    def test_only_administrators_look_up_other_users(self, cal: ec.Calendar, role: str) -> None:
        """Another user's login, role and email are not public, as the list is not: every
        other role (and anonymous) is ``Forbidden``, for a login that exists or not alike.
        A user may look themselves up. Anyone could read any user before."""
        cal.users.create("alice", role="administrator", email="alice@example.org")
        other = self.user_cal(cal, role, "mallory")
        refused = []
        for caller in (other, cal.as_user(None)):
            for login in ("alice", "ghost"):
                with pytest.raises(Forbidden, match="may not manage users") as info:
                    caller.users.get(login)
                refused.append(info.value.http_status)
        assert ([403, 403, 401, 401], "mallory") == (refused, other.users.get("mallory").login)

    def test_editor_cannot_remove_users(self, cal: ec.Calendar) -> None:
        """Removing users needs an administrator; the user stays."""
        cal.users.create("alice")
        editor = self.user_cal(cal, "editor")
        before = snapshot(cal)
        with pytest.raises(Forbidden, match="may not manage users"):
            editor.users.remove("alice")
        assert before == snapshot(cal)

    @pytest.mark.parametrize("issue", ["issue_password", "issue_token"])
    def test_editor_cannot_issue_secrets(self, cal: ec.Calendar, issue: str) -> None:
        """Issuing passwords or tokens needs an administrator; nothing is stored."""
        alice = cal.users.create("alice", role="administrator")
        editor = self.user_cal(cal, "editor")
        with pytest.raises(Forbidden, match="may not manage users"):
            getattr(editor.users, issue)("alice")
        assert [] == list(cal.backend.credentials(alice.id))
