from tests.adapters.indico.test_learn_indico import *  # noqa
from adapters.profile.learn.draft import draft_parts

async def test_dump(shown):
    open("/tmp/indico_recording.json", "w").write(shown.recording.model_dump_json(indent=1))
    open("/tmp/indico_draft.yaml", "w").write(draft_parts(shown.recording))
    print("\n".join(shown.said[-60:]))
