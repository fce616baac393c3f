from tests.schafkopf.conftest import a_list, add_players, drawn, enter_all, schafkopf  # noqa: F401
