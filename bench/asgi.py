"""The site's ASGI app plus one bare route for the benchmark's baseline: a consumer that
only relays a message to its group through the channel layer (no DB, no templates)."""

import json
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402

from config.asgi import application as site  # noqa: E402


class RelayConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.group = "bench-" + self.scope["url_route"]["kwargs"]["group"]
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def receive(self, text_data=None, bytes_data=None):
        await self.channel_layer.group_send(self.group, {"type": "relay", "text": text_data})

    async def relay(self, event):
        await self.send(text_data=event["text"])


baseline = URLRouter([path("ws/bench/<str:group>/", RelayConsumer.as_asgi())])


async def application(scope, receive, send):
    if scope["type"] == "websocket" and scope["path"].startswith("/ws/bench/"):
        return await baseline(scope, receive, send)
    return await site(scope, receive, send)
