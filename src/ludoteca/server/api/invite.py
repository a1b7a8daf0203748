"""``/api/tables/{id}/invite.svg``: the invite link of a table as a QR code (SVG, made here:
no network), for a friend's phone to scan from the screen."""

from __future__ import annotations

import io

import segno
from fastapi import APIRouter, Request, Response

from .deps import LobbyDep, links

router = APIRouter(tags=["tables"])


def qr_svg(text: str, title: str) -> bytes:
    """``text`` as a QR code: black modules on white with the quiet zone, 4 px a module."""
    out = io.BytesIO()
    segno.make(text, error="m").save(
        out, kind="svg", scale=4, border=4, dark="#000", light="#fff", title=title, xmldecl=False
    )
    return out.getvalue()


@router.get(
    "/api/tables/{table_id}/invite.svg",
    summary="The invite link as a QR code",
    response_class=Response,
    responses={200: {"content": {"image/svg+xml": {}}}},
)
async def invite_qr(table_id: str, request: Request, lobby: LobbyDep) -> Response:
    table = await lobby.residency.peek(table_id)
    invite = links(request, table.id)["invite"]
    return Response(
        qr_svg(invite, invite),
        media_type="image/svg+xml",
        headers={"Cache-Control": "no-cache"},
    )
