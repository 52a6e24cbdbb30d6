"""The open platform: personal API tokens, BOT accounts and the bot API (challenges,
event and match streams, actions), and the open match export (``gin-match/1``)."""
