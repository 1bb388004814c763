"""The site's ASGI app plus two bare routes for the benchmark's baselines: a consumer that
only relays a message to its group through the channel layer, and one that writes it
straight to the group's local sockets (no DB, no templates, no logic)."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from channels.generic.websocket import AsyncWebsocketConsumer
from channels.routing import URLRouter
from django.urls import path

from config.asgi import application as site


class RelayConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.group = "bench-" + self.scope["url_route"]["kwargs"]["group"]
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def receive(self, text_data=None, bytes_data=None):
        await self.channel_layer.group_send(self.group, {"type": "relay", "text": text_data})

    async def relay(self, event):
        await self.send(text_data=event["text"])


class LocalRelayConsumer(AsyncWebsocketConsumer):
    """The floor of the live design: a message written straight to the 5 local sockets of
    its group (no channel layer, no logic), as a room owner writes to its room's sockets."""

    members: dict[str, set] = {}  # not "groups": channels reads that name

    async def connect(self):
        self.group = self.scope["url_route"]["kwargs"]["group"]
        self.members.setdefault(self.group, set()).add(self)
        await self.accept()

    async def disconnect(self, code):
        self.members.get(self.group, set()).discard(self)

    async def receive(self, text_data=None, bytes_data=None):
        for member in list(self.members.get(self.group, ())):
            await member.send(text_data=text_data)


baseline = URLRouter(
    [
        path("ws/bench/<str:group>/", RelayConsumer.as_asgi()),
        path("ws/local/<str:group>/", LocalRelayConsumer.as_asgi()),
    ]
)


async def application(scope, receive, send):
    if scope["type"] == "websocket" and scope["path"].startswith(("/ws/bench/", "/ws/local/")):
        return await baseline(scope, receive, send)
    return await site(scope, receive, send)
