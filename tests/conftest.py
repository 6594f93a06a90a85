import kingdoms

from toygame import HighCard

kingdoms.register("highcard", HighCard)
