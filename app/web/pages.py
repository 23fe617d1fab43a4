"""The HTML pages: search, cards, rules, index, FAQ, rulebook, scenarios and the sandbox.

Each page renders the same data its ``/api`` twin returns (``data.py``). Pages
work without JavaScript: search is a GET form, the sandbox is a sequence of
POST forms whose whole state travels in the URL (so a link reproduces it).
"""
from __future__ import annotations

import time

import yaml

from flask import (Blueprint, Response, abort, g, redirect, render_template, request, url_for)

from app.corpus.model import slugify
from app.web import browse, data, services, words
from app.web import replay as rp
from app.web import sandbox, sandbox_moves, sandbox_names
from app.web.api import _card_lookup, run_search
from app.web.dispute import dispute_view
from app.web.errors import ApiError
from app.web.limits import FORM_BYTES, limited
from app.web.render import INDEX_URL, section_url
from app.web.scenario_page import scenario_view

pages = Blueprint("pages", __name__)
MAX_RULES_PAGE = 100_000


@pages.before_app_request
def _start_timer() -> None:
    g.t0 = time.perf_counter()


@pages.after_app_request
def _headers(resp: Response) -> Response:
    t0 = g.get("t0")
    if t0 is not None:
        resp.headers["Server-Timing"] = f"app;dur={(time.perf_counter() - t0) * 1000:.1f}"
    resp.headers.setdefault("X-Content-Type-Options", "nosniff")
    resp.headers.setdefault("Content-Security-Policy",
                            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
                            "frame-ancestors 'none'")
    return resp


for _name, _fn in words.FILTERS.items():
    pages.add_app_template_filter(_fn, _name)
pages.add_app_template_filter(sandbox_moves.other_moves, "other_moves")   # registered moves without a control


@pages.app_template_global()
def move_words(step: dict) -> str:
    """A sandbox step as a player says it ("Play Throne Room", "End the turn"), with the answers given."""
    from app.web.scenario_page import step_words

    action = next((k for k in step if k != "answers"), "")
    words = step_words(action, step.get(action))
    answers = step.get("answers") or []
    return words + (f" (answered: {'; '.join(answer_text(a) for a in answers)})" if answers else "")


@pages.app_template_filter("answer_text")
def answer_text(a) -> str:
    """A scenario answer as a player would say it: names joined, booleans as yes/no."""
    if isinstance(a, bool):
        return "yes" if a else "no"
    if isinstance(a, (list, tuple)):
        return ", ".join(answer_text(x) for x in a) or "nothing"
    return "nothing" if a is None else str(a)


@pages.app_template_global()
def cite_url(c: dict) -> str | None:
    """Where a scenario citation ({card, ruling} or {section}) lives on the site."""
    if "card" in c:
        anchor = f"#r{c['ruling']}" if c.get("ruling") is not None else ""
        return f"/cards/{slugify(c['card'])}{anchor}"
    if "section" in c:
        slug = services().section_slug(c["section"])
        if slug:
            return section_url("rules", slug) + (f"#p{c['paragraph']}" if c.get("paragraph") else "")
    return None


# ------------------------------------------------------------------ search
@pages.get("/")
@pages.get("/search")
@limited(query="q")
def home():
    q = request.args.get("q", "").strip()
    results, error, dispute, card_hint = None, None, None, None
    if q:
        try:
            results = run_search(q, 20)  # @limited already refused longer queries
            dispute = dispute_view(services().scenarios.facts, results.get("cards") or [], q)
            if not results.get("cards"):
                card_hint = _card_lookup().sole_start(q)     # "throne" -> "the card Throne Room?"
        except ApiError as exc:
            error = exc.message
    return render_template("home.html", q=q, results=results, error=error, dispute=dispute, card_hint=card_hint)


@pages.get("/search/dispute")
@limited(query="q")
def dispute_fragment():
    """The "played out" box of a search, for the results that the page renders as you type."""
    q = request.args.get("q", "").strip()
    dispute = None
    if q:
        try:
            dispute = dispute_view(services().scenarios.facts, run_search(q, 1).get("cards") or [], q)
        except ApiError:
            dispute = None
    return render_template("_dispute.html", dispute=dispute)


# ------------------------------------------------------------------ cards
@pages.get("/cards")
def cards():
    view = browse.cards_by_letter(data.cards_view(services().store)["cards"], request.args.get("set", "")[:60])
    return render_template("cards.html", view=view)


@pages.get("/cards/<slug>")
def card(slug: str):
    s = services()
    canonical = slugify(slug)
    if canonical and canonical != slug:
        return redirect(url_for("pages.card", slug=canonical), 301)
    pile = data.entry_for_pile(s.store, slug)
    if pile:
        return redirect(url_for("pages.card", slug=pile), 301)
    view = data.card_view(s.store, s.renderer, slug, s.scenarios)
    return render_template("card.html", card=view)


@pages.get("/disagreements")
def disagreements():
    return render_template("disagreements.html", view=data.disagreements_view(services().store))


# ------------------------------------------------------------------ rules
@pages.get("/rules")
def rules():
    return render_template("toc.html", view=data.toc_view(services().store, "rules"))


@pages.get("/rules/<slug>")
@pages.get("/faq/<slug>")
@pages.get("/adventures/<slug>")
@pages.get("/german/<slug>")
@pages.get("/sections/<slug>")
def section(slug: str):
    """A section under its document's prefix; any other prefix redirects there (one permalink each)."""
    s = services()
    view = data.section_view(s.store, s.renderer, slug)
    if request.path != view["url"]:
        return redirect(view["url"], 301)
    return render_template("section.html", sec=view)


@pages.get("/rules/index")
def index_terms():
    return redirect(INDEX_URL, 301)


@pages.get("/german")
def german():
    return render_template("german.html", view=data.german_view(services().store))


@pages.get("/rules/page/<int:page>")
def rules_page(page: int):
    if page > MAX_RULES_PAGE:     # past SQLite's integers too; the printed rules have about 150 pages
        abort(404, description=f"no section of the Complete Rules is on page {page}")
    hit = services().store.section_for_page(page)
    if hit is None:
        abort(404, description=f"no section of the Complete Rules is on page {page}")
    return redirect(section_url("rules", hit["slug"]))


@pages.get("/faq")
def faq():
    s = services()
    return render_template("faq.html", view=data.faq_view(s.store, s.renderer))


@pages.get("/adventures")
def adventures():
    s = services()
    return render_template("rulebook.html", view=data.rulebook_view(s.store, s.renderer))


# ------------------------------------------------------------------ scenarios
@pages.get("/scenarios")
def scenarios():
    q = request.args.get("q", "").strip()[:100]
    return render_template("scenarios.html", view=browse.scenarios_by_set(services().scenarios.facts.rows(), q))


@pages.get("/scenarios/<sid>")
@limited(replay=True)
def scenario(sid: str):
    try:
        s = services()
        view = scenario_view(s.scenarios.replay(sid), s.scenarios.facts.get(sid))
        # only cards with a Card Reference entry (basic cards such as Copper have none)
        view["cards"] = [c for c in view["cards"] if s.store.row("select 1 from cards where slug=?", (c["url"][7:],))]
    except rp.BadScenario as exc:
        raise ApiError(422, "bad_scenario", f"{sid}.yaml: {exc}") from None
    return render_template("scenario.html", sc=view)


@pages.get("/scenarios/<sid>.yaml")
def scenario_file(sid: str):
    path = rp.scenario_path(sid)
    if path is None:
        raise data.NotFound("scenario", sid)
    return Response(path.read_text(encoding="utf-8"), mimetype="application/yaml",
                    headers={"Content-Disposition": f'attachment; filename="{sid}.yaml"'})


# ------------------------------------------------------------------ sandbox
@pages.get("/try")
@limited(replay=True)
def try_page():
    token = request.args.get("s", "")
    if not token:
        return _setup_page(_starting_form(), None)
    try:
        state = sandbox.decode(token)
    except sandbox.SandboxError as exc:
        raise ApiError(400, "bad_sandbox_link", str(exc)) from None
    outcome, error = sandbox.run(state)
    return render_template("try.html", state=state, token=token, outcome=outcome, error=error,
                           yaml_text=sandbox.to_yaml(state), rulings_text=sandbox.rulings_text(state))


def _starting_form() -> dict[str, str]:
    """A new game: from a scenario ("Open in sandbox"), from a search's cards ("Try it"), or the example table."""
    sid = request.args.get("scenario", "")
    if sid:
        path = rp.scenario_path(sid)
        if path is None:
            raise data.NotFound("scenario", sid)
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
        return sandbox.form_from_scenario(raw if isinstance(raw, dict) else {})
    cards = [c.strip() for c in request.args.get("cards", "").split(",") if c.strip()][:6]
    if cards:
        resolve = _resolver().resolve
        return sandbox.dispute_form([name for name, _ in map(resolve, cards) if name] or cards)
    return sandbox.default_form()


def _resolver():
    s = services()
    if getattr(s, "card_resolver", None) is None:
        s.card_resolver = sandbox_names.CardResolver(lambda: s.store)
    return s.card_resolver


def _setup_page(form, error: str | None, status: int = 200, errors: dict[str, str] | None = None):
    return render_template("try_setup.html", defined=sandbox.defined_cards(), form=form, error=error,
                           errors=errors or {}, versions=sandbox.version_options(), sandbox=sandbox), status


@pages.post("/try")
@limited(body=FORM_BYTES, replay=True)
def try_post():
    """Apply one form (setup, players +/-, load a file, action, answer, rulings, undo) and redirect to the new link."""
    form = request.form
    op = form.get("op", "")
    check = sandbox.store_check(lambda: services().store)
    try:
        if op in ("add_player", "remove_player"):
            return _setup_page(sandbox.resize_form(form, op), None)
        if op == "setup":
            state = sandbox.from_setup_form(form, check, _resolver().resolve)
        elif op == "load":
            upload = request.files.get("file")
            text = upload.read(rp.MAX_SCENARIO_BYTES + 1).decode("utf-8", "replace") if upload and upload.filename \
                else form.get("scenario", "")
            state = sandbox.from_scenario_text(text)
        else:
            state = sandbox.decode(form.get("s", ""))
            state = sandbox.set_rulings(state, form.get("rulings", ""), check) if op == "rulings" \
                else sandbox.apply(state, form)
        token = sandbox.encode(state)
    except sandbox.SetupErrors as exc:
        return _setup_page(form, f"{len(exc.errors)} thing{'s' if len(exc.errors) > 1 else ''} to fix below",
                           400, exc.errors)
    except sandbox.SandboxError as exc:
        if op in ("setup", "load", "add_player", "remove_player"):
            return _setup_page(form, str(exc), 400)
        raise ApiError(400, "bad_sandbox_input", str(exc)) from None
    return redirect(url_for("pages.try_page", s=token) + "#now", 303)


@pages.get("/try/scenario.yaml")
def try_download():
    try:
        state = sandbox.decode(request.args.get("s", ""))
    except sandbox.SandboxError as exc:
        raise ApiError(400, "bad_sandbox_link", str(exc)) from None
    return Response(sandbox.to_yaml(state), mimetype="application/yaml",
                    headers={"Content-Disposition": 'attachment; filename="sandbox-scenario.yaml"'})
