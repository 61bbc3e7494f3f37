"""The protocol schema's validators as ``fastjsonschema`` generates them (a generated file:
do not edit; `python -m aalis_memory.conformance contract-tables` rewrites it).

Kept in the package so that no process compiles them again: compiling costs about 0.1 s, and a
crash test forks a writer per kill. Used only while ``SCHEMA_SHA256`` is the schema's own.
"""
# ruff: noqa
# mypy: ignore-errors

SCHEMA_SHA256 = 'df90a0234a5dd385be0d1232560f4fa1b6a9f40ca0fabb213c645e5844d337d6'
VERSION = "2.22.3"
from decimal import Decimal
import re
from fastjsonschema import JsonSchemaValueException, JsonSchemaValuesException


REGEX_PATTERNS = {
    '^-?[0-9]+$': re.compile('^-?[0-9]+\\Z'),
    '^[0-9]+$': re.compile('^[0-9]+\\Z'),
    '^[1-9][0-9]*$': re.compile('^[1-9][0-9]*\\Z')
}

NoneType = type(None)

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json(data, custom_formats={}, name_prefix=None):
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data_keys = set(data.keys())
        if "envelope" in data_keys:
            data_keys.remove("envelope")
            data__envelope = data["envelope"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_envelope(data__envelope, custom_formats, (name_prefix or "data") + ".envelope")
        if "params/hello" in data_keys:
            data_keys.remove("params/hello")
            data__paramshello = data["params/hello"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_hello(data__paramshello, custom_formats, (name_prefix or "data") + ".params/hello")
        if "params/open" in data_keys:
            data_keys.remove("params/open")
            data__paramsopen = data["params/open"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_open(data__paramsopen, custom_formats, (name_prefix or "data") + ".params/open")
        if "params/close" in data_keys:
            data_keys.remove("params/close")
            data__paramsclose = data["params/close"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_close(data__paramsclose, custom_formats, (name_prefix or "data") + ".params/close")
        if "params/saveMessage" in data_keys:
            data_keys.remove("params/saveMessage")
            data__paramssaveMessage = data["params/saveMessage"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_savemessage(data__paramssaveMessage, custom_formats, (name_prefix or "data") + ".params/saveMessage")
        if "params/getHistory" in data_keys:
            data_keys.remove("params/getHistory")
            data__paramsgetHistory = data["params/getHistory"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_gethistory(data__paramsgetHistory, custom_formats, (name_prefix or "data") + ".params/getHistory")
        if "params/clearSession" in data_keys:
            data_keys.remove("params/clearSession")
            data__paramsclearSession = data["params/clearSession"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_clearsession(data__paramsclearSession, custom_formats, (name_prefix or "data") + ".params/clearSession")
        if "params/archiveSpan" in data_keys:
            data_keys.remove("params/archiveSpan")
            data__paramsarchiveSpan = data["params/archiveSpan"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_archivespan(data__paramsarchiveSpan, custom_formats, (name_prefix or "data") + ".params/archiveSpan")
        if "params/saveMetadata" in data_keys:
            data_keys.remove("params/saveMetadata")
            data__paramssaveMetadata = data["params/saveMetadata"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_savemetadata(data__paramssaveMetadata, custom_formats, (name_prefix or "data") + ".params/saveMetadata")
        if "params/getMetadata" in data_keys:
            data_keys.remove("params/getMetadata")
            data__paramsgetMetadata = data["params/getMetadata"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_getmetadata(data__paramsgetMetadata, custom_formats, (name_prefix or "data") + ".params/getMetadata")
        if "params/listMetadata" in data_keys:
            data_keys.remove("params/listMetadata")
            data__paramslistMetadata = data["params/listMetadata"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_listmetadata(data__paramslistMetadata, custom_formats, (name_prefix or "data") + ".params/listMetadata")
        if "params/deleteMetadata" in data_keys:
            data_keys.remove("params/deleteMetadata")
            data__paramsdeleteMetadata = data["params/deleteMetadata"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_deletemetadata(data__paramsdeleteMetadata, custom_formats, (name_prefix or "data") + ".params/deleteMetadata")
        if "params/commitMetadata" in data_keys:
            data_keys.remove("params/commitMetadata")
            data__paramscommitMetadata = data["params/commitMetadata"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_commitmetadata(data__paramscommitMetadata, custom_formats, (name_prefix or "data") + ".params/commitMetadata")
        if "params/clearAll" in data_keys:
            data_keys.remove("params/clearAll")
            data__paramsclearAll = data["params/clearAll"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_clearall(data__paramsclearAll, custom_formats, (name_prefix or "data") + ".params/clearAll")
        if "params/getFullHistory" in data_keys:
            data_keys.remove("params/getFullHistory")
            data__paramsgetFullHistory = data["params/getFullHistory"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_getfullhistory(data__paramsgetFullHistory, custom_formats, (name_prefix or "data") + ".params/getFullHistory")
        if "params/countHistory" in data_keys:
            data_keys.remove("params/countHistory")
            data__paramscountHistory = data["params/countHistory"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_counthistory(data__paramscountHistory, custom_formats, (name_prefix or "data") + ".params/countHistory")
        if "params/getMessagesBySessionRange" in data_keys:
            data_keys.remove("params/getMessagesBySessionRange")
            data__paramsgetMessagesBySessionRange = data["params/getMessagesBySessionRange"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_getmessagesbysessionrange(data__paramsgetMessagesBySessionRange, custom_formats, (name_prefix or "data") + ".params/getMessagesBySessionRange")
        if "params/getRecentMessagesAcrossSessions" in data_keys:
            data_keys.remove("params/getRecentMessagesAcrossSessions")
            data__paramsgetRecentMessagesAcrossSessions = data["params/getRecentMessagesAcrossSessions"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_getrecentmessagesacrosssessions(data__paramsgetRecentMessagesAcrossSessions, custom_formats, (name_prefix or "data") + ".params/getRecentMessagesAcrossSessions")
        if "params/listMetadataKeys" in data_keys:
            data_keys.remove("params/listMetadataKeys")
            data__paramslistMetadataKeys = data["params/listMetadataKeys"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_listmetadatakeys(data__paramslistMetadataKeys, custom_formats, (name_prefix or "data") + ".params/listMetadataKeys")
        if "params/updateMessageContent" in data_keys:
            data_keys.remove("params/updateMessageContent")
            data__paramsupdateMessageContent = data["params/updateMessageContent"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_updatemessagecontent(data__paramsupdateMessageContent, custom_formats, (name_prefix or "data") + ".params/updateMessageContent")
        if "params/deleteMessagesByTimestamps" in data_keys:
            data_keys.remove("params/deleteMessagesByTimestamps")
            data__paramsdeleteMessagesByTimestamps = data["params/deleteMessagesByTimestamps"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_deletemessagesbytimestamps(data__paramsdeleteMessagesByTimestamps, custom_formats, (name_prefix or "data") + ".params/deleteMessagesByTimestamps")
        if "params/plantRawMetadata" in data_keys:
            data_keys.remove("params/plantRawMetadata")
            data__paramsplantRawMetadata = data["params/plantRawMetadata"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_plantrawmetadata(data__paramsplantRawMetadata, custom_formats, (name_prefix or "data") + ".params/plantRawMetadata")
        if "params/isolationProbe" in data_keys:
            data_keys.remove("params/isolationProbe")
            data__paramsisolationProbe = data["params/isolationProbe"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_isolationprobe(data__paramsisolationProbe, custom_formats, (name_prefix or "data") + ".params/isolationProbe")
        if "results/hello" in data_keys:
            data_keys.remove("results/hello")
            data__resultshello = data["results/hello"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_hello(data__resultshello, custom_formats, (name_prefix or "data") + ".results/hello")
        if "results/open" in data_keys:
            data_keys.remove("results/open")
            data__resultsopen = data["results/open"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_open(data__resultsopen, custom_formats, (name_prefix or "data") + ".results/open")
        if "results/close" in data_keys:
            data_keys.remove("results/close")
            data__resultsclose = data["results/close"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_close(data__resultsclose, custom_formats, (name_prefix or "data") + ".results/close")
        if "results/saveMessage" in data_keys:
            data_keys.remove("results/saveMessage")
            data__resultssaveMessage = data["results/saveMessage"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_savemessage(data__resultssaveMessage, custom_formats, (name_prefix or "data") + ".results/saveMessage")
        if "results/getHistory" in data_keys:
            data_keys.remove("results/getHistory")
            data__resultsgetHistory = data["results/getHistory"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_gethistory(data__resultsgetHistory, custom_formats, (name_prefix or "data") + ".results/getHistory")
        if "results/clearSession" in data_keys:
            data_keys.remove("results/clearSession")
            data__resultsclearSession = data["results/clearSession"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_clearsession(data__resultsclearSession, custom_formats, (name_prefix or "data") + ".results/clearSession")
        if "results/archiveSpan" in data_keys:
            data_keys.remove("results/archiveSpan")
            data__resultsarchiveSpan = data["results/archiveSpan"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_archivespan(data__resultsarchiveSpan, custom_formats, (name_prefix or "data") + ".results/archiveSpan")
        if "results/saveMetadata" in data_keys:
            data_keys.remove("results/saveMetadata")
            data__resultssaveMetadata = data["results/saveMetadata"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_savemetadata(data__resultssaveMetadata, custom_formats, (name_prefix or "data") + ".results/saveMetadata")
        if "results/getMetadata" in data_keys:
            data_keys.remove("results/getMetadata")
            data__resultsgetMetadata = data["results/getMetadata"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_getmetadata(data__resultsgetMetadata, custom_formats, (name_prefix or "data") + ".results/getMetadata")
        if "results/listMetadata" in data_keys:
            data_keys.remove("results/listMetadata")
            data__resultslistMetadata = data["results/listMetadata"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_listmetadata(data__resultslistMetadata, custom_formats, (name_prefix or "data") + ".results/listMetadata")
        if "results/deleteMetadata" in data_keys:
            data_keys.remove("results/deleteMetadata")
            data__resultsdeleteMetadata = data["results/deleteMetadata"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_deletemetadata(data__resultsdeleteMetadata, custom_formats, (name_prefix or "data") + ".results/deleteMetadata")
        if "results/commitMetadata" in data_keys:
            data_keys.remove("results/commitMetadata")
            data__resultscommitMetadata = data["results/commitMetadata"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_commitmetadata(data__resultscommitMetadata, custom_formats, (name_prefix or "data") + ".results/commitMetadata")
        if "results/clearAll" in data_keys:
            data_keys.remove("results/clearAll")
            data__resultsclearAll = data["results/clearAll"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_clearall(data__resultsclearAll, custom_formats, (name_prefix or "data") + ".results/clearAll")
        if "results/getFullHistory" in data_keys:
            data_keys.remove("results/getFullHistory")
            data__resultsgetFullHistory = data["results/getFullHistory"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_getfullhistory(data__resultsgetFullHistory, custom_formats, (name_prefix or "data") + ".results/getFullHistory")
        if "results/countHistory" in data_keys:
            data_keys.remove("results/countHistory")
            data__resultscountHistory = data["results/countHistory"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_counthistory(data__resultscountHistory, custom_formats, (name_prefix or "data") + ".results/countHistory")
        if "results/getMessagesBySessionRange" in data_keys:
            data_keys.remove("results/getMessagesBySessionRange")
            data__resultsgetMessagesBySessionRange = data["results/getMessagesBySessionRange"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_getmessagesbysessionrange(data__resultsgetMessagesBySessionRange, custom_formats, (name_prefix or "data") + ".results/getMessagesBySessionRange")
        if "results/getRecentMessagesAcrossSessions" in data_keys:
            data_keys.remove("results/getRecentMessagesAcrossSessions")
            data__resultsgetRecentMessagesAcrossSessions = data["results/getRecentMessagesAcrossSessions"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_getrecentmessagesacrosssessions(data__resultsgetRecentMessagesAcrossSessions, custom_formats, (name_prefix or "data") + ".results/getRecentMessagesAcrossSessions")
        if "results/listMetadataKeys" in data_keys:
            data_keys.remove("results/listMetadataKeys")
            data__resultslistMetadataKeys = data["results/listMetadataKeys"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_listmetadatakeys(data__resultslistMetadataKeys, custom_formats, (name_prefix or "data") + ".results/listMetadataKeys")
        if "results/updateMessageContent" in data_keys:
            data_keys.remove("results/updateMessageContent")
            data__resultsupdateMessageContent = data["results/updateMessageContent"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_updatemessagecontent(data__resultsupdateMessageContent, custom_formats, (name_prefix or "data") + ".results/updateMessageContent")
        if "results/deleteMessagesByTimestamps" in data_keys:
            data_keys.remove("results/deleteMessagesByTimestamps")
            data__resultsdeleteMessagesByTimestamps = data["results/deleteMessagesByTimestamps"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_deletemessagesbytimestamps(data__resultsdeleteMessagesByTimestamps, custom_formats, (name_prefix or "data") + ".results/deleteMessagesByTimestamps")
        if "results/plantRawMetadata" in data_keys:
            data_keys.remove("results/plantRawMetadata")
            data__resultsplantRawMetadata = data["results/plantRawMetadata"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_plantrawmetadata(data__resultsplantRawMetadata, custom_formats, (name_prefix or "data") + ".results/plantRawMetadata")
        if "results/isolationProbe" in data_keys:
            data_keys.remove("results/isolationProbe")
            data__resultsisolationProbe = data["results/isolationProbe"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_isolationprobe(data__resultsisolationProbe, custom_formats, (name_prefix or "data") + ".results/isolationProbe")
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_isolationprobe(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'again': {'type': 'array'}, 'history': {'type': 'array', 'items': {'type': 'object', 'properties': {'role': {'type': 'string'}, 'content': {'type': ['string', 'null']}, 'toolCalls': {'type': 'array', 'items': {'type': 'object'}}, 'toolCallId': {'type': 'string'}, 'name': {'type': 'string'}, 'kind': {'type': 'string'}, 'timestamp': {'description': 'Epoch milliseconds: a number, or a tagged integer ($int) or number ($num) as in requests.', 'anyOf': [{'type': 'number'}, {'$ref': '#/$defs/taggedInteger'}, {'$ref': '#/$defs/taggedNumber'}]}, 'reasoningContent': {'type': ['string', 'null']}, 'segments': {'type': 'array', 'items': {'type': 'object'}}, 'images': {'type': 'array', 'items': {'type': 'string'}}, 'audios': {'type': 'array', 'items': {'type': 'string'}}, 'metadata': {'type': 'object'}}, 'required': ['role', 'content', 'timestamp'], 'additionalProperties': False}}}, 'required': ['again', 'history'], 'additionalProperties': False}, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['again', 'history']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'again': {'type': 'array'}, 'history': {'type': 'array', 'items': {'type': 'object', 'properties': {'role': {'type': 'string'}, 'content': {'type': ['string', 'null']}, 'toolCalls': {'type': 'array', 'items': {'type': 'object'}}, 'toolCallId': {'type': 'string'}, 'name': {'type': 'string'}, 'kind': {'type': 'string'}, 'timestamp': {'description': 'Epoch milliseconds: a number, or a tagged integer ($int) or number ($num) as in requests.', 'anyOf': [{'type': 'number'}, {'$ref': '#/$defs/taggedInteger'}, {'$ref': '#/$defs/taggedNumber'}]}, 'reasoningContent': {'type': ['string', 'null']}, 'segments': {'type': 'array', 'items': {'type': 'object'}}, 'images': {'type': 'array', 'items': {'type': 'string'}}, 'audios': {'type': 'array', 'items': {'type': 'string'}}, 'metadata': {'type': 'object'}}, 'required': ['role', 'content', 'timestamp'], 'additionalProperties': False}}}, 'required': ['again', 'history'], 'additionalProperties': False}, rule='required')
        data_keys = set(data.keys())
        if "again" in data_keys:
            data_keys.remove("again")
            data__again = data["again"]
            if not isinstance(data__again, (list, tuple)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".again must be array", value=data__again, name="" + (name_prefix or "data") + ".again", definition={'type': 'array'}, rule='type')
        if "history" in data_keys:
            data_keys.remove("history")
            data__history = data["history"]
            if not isinstance(data__history, (list, tuple)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".history must be array", value=data__history, name="" + (name_prefix or "data") + ".history", definition={'type': 'array', 'items': {'type': 'object', 'properties': {'role': {'type': 'string'}, 'content': {'type': ['string', 'null']}, 'toolCalls': {'type': 'array', 'items': {'type': 'object'}}, 'toolCallId': {'type': 'string'}, 'name': {'type': 'string'}, 'kind': {'type': 'string'}, 'timestamp': {'description': 'Epoch milliseconds: a number, or a tagged integer ($int) or number ($num) as in requests.', 'anyOf': [{'type': 'number'}, {'$ref': '#/$defs/taggedInteger'}, {'$ref': '#/$defs/taggedNumber'}]}, 'reasoningContent': {'type': ['string', 'null']}, 'segments': {'type': 'array', 'items': {'type': 'object'}}, 'images': {'type': 'array', 'items': {'type': 'string'}}, 'audios': {'type': 'array', 'items': {'type': 'string'}}, 'metadata': {'type': 'object'}}, 'required': ['role', 'content', 'timestamp'], 'additionalProperties': False}}, rule='type')
            data__history_is_list = isinstance(data__history, (list, tuple))
            if data__history_is_list:
                data__history_len = len(data__history)
                for data__history_x, data__history_item in enumerate(data__history):
                    validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_message(data__history_item, custom_formats, (name_prefix or "data") + f".history[{data__history_x}]")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'again': {'type': 'array'}, 'history': {'type': 'array', 'items': {'type': 'object', 'properties': {'role': {'type': 'string'}, 'content': {'type': ['string', 'null']}, 'toolCalls': {'type': 'array', 'items': {'type': 'object'}}, 'toolCallId': {'type': 'string'}, 'name': {'type': 'string'}, 'kind': {'type': 'string'}, 'timestamp': {'description': 'Epoch milliseconds: a number, or a tagged integer ($int) or number ($num) as in requests.', 'anyOf': [{'type': 'number'}, {'$ref': '#/$defs/taggedInteger'}, {'$ref': '#/$defs/taggedNumber'}]}, 'reasoningContent': {'type': ['string', 'null']}, 'segments': {'type': 'array', 'items': {'type': 'object'}}, 'images': {'type': 'array', 'items': {'type': 'string'}}, 'audios': {'type': 'array', 'items': {'type': 'string'}}, 'metadata': {'type': 'object'}}, 'required': ['role', 'content', 'timestamp'], 'additionalProperties': False}}}, 'required': ['again', 'history'], 'additionalProperties': False}, rule='additionalProperties')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_message(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'role': {'type': 'string'}, 'content': {'type': ['string', 'null']}, 'toolCalls': {'type': 'array', 'items': {'type': 'object'}}, 'toolCallId': {'type': 'string'}, 'name': {'type': 'string'}, 'kind': {'type': 'string'}, 'timestamp': {'description': 'Epoch milliseconds: a number, or a tagged integer ($int) or number ($num) as in requests.', 'anyOf': [{'type': 'number'}, {'description': 'An integer JSON cannot carry exactly ({"$int": "<decimal digits>"}): accepted wherever a result holds an integer, as the kit sends it (docs/stdio-protocol.md, Values).', 'type': 'object', 'properties': {'$int': {'type': 'string', 'pattern': '^-?[0-9]+$'}}, 'required': ['$int'], 'additionalProperties': False}, {'type': 'object', 'properties': {'$num': {'enum': ['Infinity', '-Infinity', 'NaN']}}, 'required': ['$num'], 'additionalProperties': False}]}, 'reasoningContent': {'type': ['string', 'null']}, 'segments': {'type': 'array', 'items': {'type': 'object'}}, 'images': {'type': 'array', 'items': {'type': 'string'}}, 'audios': {'type': 'array', 'items': {'type': 'string'}}, 'metadata': {'type': 'object'}}, 'required': ['role', 'content', 'timestamp'], 'additionalProperties': False}, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['role', 'content', 'timestamp']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'role': {'type': 'string'}, 'content': {'type': ['string', 'null']}, 'toolCalls': {'type': 'array', 'items': {'type': 'object'}}, 'toolCallId': {'type': 'string'}, 'name': {'type': 'string'}, 'kind': {'type': 'string'}, 'timestamp': {'description': 'Epoch milliseconds: a number, or a tagged integer ($int) or number ($num) as in requests.', 'anyOf': [{'type': 'number'}, {'description': 'An integer JSON cannot carry exactly ({"$int": "<decimal digits>"}): accepted wherever a result holds an integer, as the kit sends it (docs/stdio-protocol.md, Values).', 'type': 'object', 'properties': {'$int': {'type': 'string', 'pattern': '^-?[0-9]+$'}}, 'required': ['$int'], 'additionalProperties': False}, {'type': 'object', 'properties': {'$num': {'enum': ['Infinity', '-Infinity', 'NaN']}}, 'required': ['$num'], 'additionalProperties': False}]}, 'reasoningContent': {'type': ['string', 'null']}, 'segments': {'type': 'array', 'items': {'type': 'object'}}, 'images': {'type': 'array', 'items': {'type': 'string'}}, 'audios': {'type': 'array', 'items': {'type': 'string'}}, 'metadata': {'type': 'object'}}, 'required': ['role', 'content', 'timestamp'], 'additionalProperties': False}, rule='required')
        data_keys = set(data.keys())
        if "role" in data_keys:
            data_keys.remove("role")
            data__role = data["role"]
            if not isinstance(data__role, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".role must be string", value=data__role, name="" + (name_prefix or "data") + ".role", definition={'type': 'string'}, rule='type')
        if "content" in data_keys:
            data_keys.remove("content")
            data__content = data["content"]
            if not isinstance(data__content, (str, NoneType)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".content must be string or null", value=data__content, name="" + (name_prefix or "data") + ".content", definition={'type': ['string', 'null']}, rule='type')
        if "toolCalls" in data_keys:
            data_keys.remove("toolCalls")
            data__toolCalls = data["toolCalls"]
            if not isinstance(data__toolCalls, (list, tuple)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".toolCalls must be array", value=data__toolCalls, name="" + (name_prefix or "data") + ".toolCalls", definition={'type': 'array', 'items': {'type': 'object'}}, rule='type')
            data__toolCalls_is_list = isinstance(data__toolCalls, (list, tuple))
            if data__toolCalls_is_list:
                data__toolCalls_len = len(data__toolCalls)
                for data__toolCalls_x, data__toolCalls_item in enumerate(data__toolCalls):
                    if not isinstance(data__toolCalls_item, (dict)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + f".toolCalls[{data__toolCalls_x}]" + " must be object", value=data__toolCalls_item, name="" + (name_prefix or "data") + f".toolCalls[{data__toolCalls_x}]" + "", definition={'type': 'object'}, rule='type')
        if "toolCallId" in data_keys:
            data_keys.remove("toolCallId")
            data__toolCallId = data["toolCallId"]
            if not isinstance(data__toolCallId, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".toolCallId must be string", value=data__toolCallId, name="" + (name_prefix or "data") + ".toolCallId", definition={'type': 'string'}, rule='type')
        if "name" in data_keys:
            data_keys.remove("name")
            data__name = data["name"]
            if not isinstance(data__name, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".name must be string", value=data__name, name="" + (name_prefix or "data") + ".name", definition={'type': 'string'}, rule='type')
        if "kind" in data_keys:
            data_keys.remove("kind")
            data__kind = data["kind"]
            if not isinstance(data__kind, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".kind must be string", value=data__kind, name="" + (name_prefix or "data") + ".kind", definition={'type': 'string'}, rule='type')
        if "timestamp" in data_keys:
            data_keys.remove("timestamp")
            data__timestamp = data["timestamp"]
            data__timestamp_any_of_count1 = 0
            if not data__timestamp_any_of_count1:
                try:
                    if not isinstance(data__timestamp, (int, float, Decimal)) or isinstance(data__timestamp, bool):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".timestamp must be number", value=data__timestamp, name="" + (name_prefix or "data") + ".timestamp", definition={'type': 'number'}, rule='type')
                    data__timestamp_any_of_count1 += 1
                except (JsonSchemaValueException, JsonSchemaValuesException): pass
            if not data__timestamp_any_of_count1:
                try:
                    validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_taggedinteger(data__timestamp, custom_formats, (name_prefix or "data") + ".timestamp")
                    data__timestamp_any_of_count1 += 1
                except (JsonSchemaValueException, JsonSchemaValuesException): pass
            if not data__timestamp_any_of_count1:
                try:
                    validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_taggednumber(data__timestamp, custom_formats, (name_prefix or "data") + ".timestamp")
                    data__timestamp_any_of_count1 += 1
                except (JsonSchemaValueException, JsonSchemaValuesException): pass
            if not data__timestamp_any_of_count1:
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".timestamp cannot be validated by any definition", value=data__timestamp, name="" + (name_prefix or "data") + ".timestamp", definition={'description': 'Epoch milliseconds: a number, or a tagged integer ($int) or number ($num) as in requests.', 'anyOf': [{'type': 'number'}, {'description': 'An integer JSON cannot carry exactly ({"$int": "<decimal digits>"}): accepted wherever a result holds an integer, as the kit sends it (docs/stdio-protocol.md, Values).', 'type': 'object', 'properties': {'$int': {'type': 'string', 'pattern': '^-?[0-9]+$'}}, 'required': ['$int'], 'additionalProperties': False}, {'type': 'object', 'properties': {'$num': {'enum': ['Infinity', '-Infinity', 'NaN']}}, 'required': ['$num'], 'additionalProperties': False}]}, rule='anyOf')
        if "reasoningContent" in data_keys:
            data_keys.remove("reasoningContent")
            data__reasoningContent = data["reasoningContent"]
            if not isinstance(data__reasoningContent, (str, NoneType)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".reasoningContent must be string or null", value=data__reasoningContent, name="" + (name_prefix or "data") + ".reasoningContent", definition={'type': ['string', 'null']}, rule='type')
        if "segments" in data_keys:
            data_keys.remove("segments")
            data__segments = data["segments"]
            if not isinstance(data__segments, (list, tuple)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".segments must be array", value=data__segments, name="" + (name_prefix or "data") + ".segments", definition={'type': 'array', 'items': {'type': 'object'}}, rule='type')
            data__segments_is_list = isinstance(data__segments, (list, tuple))
            if data__segments_is_list:
                data__segments_len = len(data__segments)
                for data__segments_x, data__segments_item in enumerate(data__segments):
                    if not isinstance(data__segments_item, (dict)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + f".segments[{data__segments_x}]" + " must be object", value=data__segments_item, name="" + (name_prefix or "data") + f".segments[{data__segments_x}]" + "", definition={'type': 'object'}, rule='type')
        if "images" in data_keys:
            data_keys.remove("images")
            data__images = data["images"]
            if not isinstance(data__images, (list, tuple)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".images must be array", value=data__images, name="" + (name_prefix or "data") + ".images", definition={'type': 'array', 'items': {'type': 'string'}}, rule='type')
            data__images_is_list = isinstance(data__images, (list, tuple))
            if data__images_is_list:
                data__images_len = len(data__images)
                for data__images_x, data__images_item in enumerate(data__images):
                    if not isinstance(data__images_item, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + f".images[{data__images_x}]" + " must be string", value=data__images_item, name="" + (name_prefix or "data") + f".images[{data__images_x}]" + "", definition={'type': 'string'}, rule='type')
        if "audios" in data_keys:
            data_keys.remove("audios")
            data__audios = data["audios"]
            if not isinstance(data__audios, (list, tuple)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".audios must be array", value=data__audios, name="" + (name_prefix or "data") + ".audios", definition={'type': 'array', 'items': {'type': 'string'}}, rule='type')
            data__audios_is_list = isinstance(data__audios, (list, tuple))
            if data__audios_is_list:
                data__audios_len = len(data__audios)
                for data__audios_x, data__audios_item in enumerate(data__audios):
                    if not isinstance(data__audios_item, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + f".audios[{data__audios_x}]" + " must be string", value=data__audios_item, name="" + (name_prefix or "data") + f".audios[{data__audios_x}]" + "", definition={'type': 'string'}, rule='type')
        if "metadata" in data_keys:
            data_keys.remove("metadata")
            data__metadata = data["metadata"]
            if not isinstance(data__metadata, (dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".metadata must be object", value=data__metadata, name="" + (name_prefix or "data") + ".metadata", definition={'type': 'object'}, rule='type')
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'role': {'type': 'string'}, 'content': {'type': ['string', 'null']}, 'toolCalls': {'type': 'array', 'items': {'type': 'object'}}, 'toolCallId': {'type': 'string'}, 'name': {'type': 'string'}, 'kind': {'type': 'string'}, 'timestamp': {'description': 'Epoch milliseconds: a number, or a tagged integer ($int) or number ($num) as in requests.', 'anyOf': [{'type': 'number'}, {'description': 'An integer JSON cannot carry exactly ({"$int": "<decimal digits>"}): accepted wherever a result holds an integer, as the kit sends it (docs/stdio-protocol.md, Values).', 'type': 'object', 'properties': {'$int': {'type': 'string', 'pattern': '^-?[0-9]+$'}}, 'required': ['$int'], 'additionalProperties': False}, {'type': 'object', 'properties': {'$num': {'enum': ['Infinity', '-Infinity', 'NaN']}}, 'required': ['$num'], 'additionalProperties': False}]}, 'reasoningContent': {'type': ['string', 'null']}, 'segments': {'type': 'array', 'items': {'type': 'object'}}, 'images': {'type': 'array', 'items': {'type': 'string'}}, 'audios': {'type': 'array', 'items': {'type': 'string'}}, 'metadata': {'type': 'object'}}, 'required': ['role', 'content', 'timestamp'], 'additionalProperties': False}, rule='additionalProperties')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_taggednumber(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'$num': {'enum': ['Infinity', '-Infinity', 'NaN']}}, 'required': ['$num'], 'additionalProperties': False}, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['$num']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'$num': {'enum': ['Infinity', '-Infinity', 'NaN']}}, 'required': ['$num'], 'additionalProperties': False}, rule='required')
        data_keys = set(data.keys())
        if "$num" in data_keys:
            data_keys.remove("$num")
            data__num = data["$num"]
            if not (isinstance(data__num, str) and data__num == 'Infinity' or isinstance(data__num, str) and data__num == '-Infinity' or isinstance(data__num, str) and data__num == 'NaN'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".$num must be one of ['Infinity', '-Infinity', 'NaN']", value=data__num, name="" + (name_prefix or "data") + ".$num", definition={'enum': ['Infinity', '-Infinity', 'NaN']}, rule='enum')
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'$num': {'enum': ['Infinity', '-Infinity', 'NaN']}}, 'required': ['$num'], 'additionalProperties': False}, rule='additionalProperties')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_taggedinteger(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition={'description': 'An integer JSON cannot carry exactly ({"$int": "<decimal digits>"}): accepted wherever a result holds an integer, as the kit sends it (docs/stdio-protocol.md, Values).', 'type': 'object', 'properties': {'$int': {'type': 'string', 'pattern': '^-?[0-9]+$'}}, 'required': ['$int'], 'additionalProperties': False}, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['$int']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition={'description': 'An integer JSON cannot carry exactly ({"$int": "<decimal digits>"}): accepted wherever a result holds an integer, as the kit sends it (docs/stdio-protocol.md, Values).', 'type': 'object', 'properties': {'$int': {'type': 'string', 'pattern': '^-?[0-9]+$'}}, 'required': ['$int'], 'additionalProperties': False}, rule='required')
        data_keys = set(data.keys())
        if "$int" in data_keys:
            data_keys.remove("$int")
            data__int = data["$int"]
            if not isinstance(data__int, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".$int must be string", value=data__int, name="" + (name_prefix or "data") + ".$int", definition={'type': 'string', 'pattern': '^-?[0-9]+$'}, rule='type')
            if isinstance(data__int, str):
                if not REGEX_PATTERNS['^-?[0-9]+$'].search(data__int):
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".$int must match pattern ^-?[0-9]+$", value=data__int, name="" + (name_prefix or "data") + ".$int", definition={'type': 'string', 'pattern': '^-?[0-9]+$'}, rule='pattern')
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition={'description': 'An integer JSON cannot carry exactly ({"$int": "<decimal digits>"}): accepted wherever a result holds an integer, as the kit sends it (docs/stdio-protocol.md, Values).', 'type': 'object', 'properties': {'$int': {'type': 'string', 'pattern': '^-?[0-9]+$'}}, 'required': ['$int'], 'additionalProperties': False}, rule='additionalProperties')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_plantrawmetadata(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (bool)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be boolean", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'boolean'}, rule='type')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_deletemessagesbytimestamps(data, custom_formats={}, name_prefix=None):
    validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_count(data, custom_formats, (name_prefix or "data") + "")
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_count(data, custom_formats={}, name_prefix=None):
    data_any_of_count2 = 0
    if not data_any_of_count2:
        try:
            if not isinstance(data, (int)) and not (isinstance(data, float) and data.is_integer()) or isinstance(data, bool):
                raise JsonSchemaValueException("" + (name_prefix or "data") + " must be integer", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'integer', 'minimum': 0}, rule='type')
            if isinstance(data, (int, float, Decimal)) and not isinstance(data, bool):
                if data < 0:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + " must be bigger than or equal to 0", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'integer', 'minimum': 0}, rule='minimum')
            data_any_of_count2 += 1
        except (JsonSchemaValueException, JsonSchemaValuesException): pass
    if not data_any_of_count2:
        try:
            if not isinstance(data, (dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'$int': {'type': 'string', 'pattern': '^[0-9]+$'}}, 'required': ['$int'], 'additionalProperties': False}, rule='type')
            data_is_dict = isinstance(data, dict)
            if data_is_dict:
                data__missing_keys = set(['$int']) - data.keys()
                if data__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'$int': {'type': 'string', 'pattern': '^[0-9]+$'}}, 'required': ['$int'], 'additionalProperties': False}, rule='required')
                data_keys = set(data.keys())
                if "$int" in data_keys:
                    data_keys.remove("$int")
                    data__int = data["$int"]
                    if not isinstance(data__int, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".$int must be string", value=data__int, name="" + (name_prefix or "data") + ".$int", definition={'type': 'string', 'pattern': '^[0-9]+$'}, rule='type')
                    if isinstance(data__int, str):
                        if not REGEX_PATTERNS['^[0-9]+$'].search(data__int):
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".$int must match pattern ^[0-9]+$", value=data__int, name="" + (name_prefix or "data") + ".$int", definition={'type': 'string', 'pattern': '^[0-9]+$'}, rule='pattern')
                if data_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'$int': {'type': 'string', 'pattern': '^[0-9]+$'}}, 'required': ['$int'], 'additionalProperties': False}, rule='additionalProperties')
            data_any_of_count2 += 1
        except (JsonSchemaValueException, JsonSchemaValuesException): pass
    if not data_any_of_count2:
        raise JsonSchemaValueException("" + (name_prefix or "data") + " cannot be validated by any definition", value=data, name="" + (name_prefix or "data") + "", definition={'description': 'A count a method returns: a non-negative integer, plain or tagged.', 'anyOf': [{'type': 'integer', 'minimum': 0}, {'type': 'object', 'properties': {'$int': {'type': 'string', 'pattern': '^[0-9]+$'}}, 'required': ['$int'], 'additionalProperties': False}]}, rule='anyOf')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_updatemessagecontent(data, custom_formats={}, name_prefix=None):
    validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_count(data, custom_formats, (name_prefix or "data") + "")
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_listmetadatakeys(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (list, tuple)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be array", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'array', 'items': {'type': 'string'}}, rule='type')
    data_is_list = isinstance(data, (list, tuple))
    if data_is_list:
        data_len = len(data)
        for data_x, data_item in enumerate(data):
            if not isinstance(data_item, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + f"[{data_x}]" + " must be string", value=data_item, name="" + (name_prefix or "data") + f"[{data_x}]" + "", definition={'type': 'string'}, rule='type')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_getrecentmessagesacrosssessions(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (list, tuple)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be array", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'array', 'items': {'type': 'object', 'properties': {'sessionId': {'type': 'string'}, 'message': {'$ref': 'https://github.com/aalis-framework/aalis-memory-conformance/stdio/protocol.schema.json#/$defs/message'}}, 'required': ['sessionId', 'message'], 'additionalProperties': False}}, rule='type')
    data_is_list = isinstance(data, (list, tuple))
    if data_is_list:
        data_len = len(data)
        for data_x, data_item in enumerate(data):
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_recentmessagerecord(data_item, custom_formats, (name_prefix or "data") + f"[{data_x}]")
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_recentmessagerecord(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'sessionId': {'type': 'string'}, 'message': {'type': 'object', 'properties': {'role': {'type': 'string'}, 'content': {'type': ['string', 'null']}, 'toolCalls': {'type': 'array', 'items': {'type': 'object'}}, 'toolCallId': {'type': 'string'}, 'name': {'type': 'string'}, 'kind': {'type': 'string'}, 'timestamp': {'description': 'Epoch milliseconds: a number, or a tagged integer ($int) or number ($num) as in requests.', 'anyOf': [{'type': 'number'}, {'$ref': '#/$defs/taggedInteger'}, {'$ref': '#/$defs/taggedNumber'}]}, 'reasoningContent': {'type': ['string', 'null']}, 'segments': {'type': 'array', 'items': {'type': 'object'}}, 'images': {'type': 'array', 'items': {'type': 'string'}}, 'audios': {'type': 'array', 'items': {'type': 'string'}}, 'metadata': {'type': 'object'}}, 'required': ['role', 'content', 'timestamp'], 'additionalProperties': False}}, 'required': ['sessionId', 'message'], 'additionalProperties': False}, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['sessionId', 'message']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'sessionId': {'type': 'string'}, 'message': {'type': 'object', 'properties': {'role': {'type': 'string'}, 'content': {'type': ['string', 'null']}, 'toolCalls': {'type': 'array', 'items': {'type': 'object'}}, 'toolCallId': {'type': 'string'}, 'name': {'type': 'string'}, 'kind': {'type': 'string'}, 'timestamp': {'description': 'Epoch milliseconds: a number, or a tagged integer ($int) or number ($num) as in requests.', 'anyOf': [{'type': 'number'}, {'$ref': '#/$defs/taggedInteger'}, {'$ref': '#/$defs/taggedNumber'}]}, 'reasoningContent': {'type': ['string', 'null']}, 'segments': {'type': 'array', 'items': {'type': 'object'}}, 'images': {'type': 'array', 'items': {'type': 'string'}}, 'audios': {'type': 'array', 'items': {'type': 'string'}}, 'metadata': {'type': 'object'}}, 'required': ['role', 'content', 'timestamp'], 'additionalProperties': False}}, 'required': ['sessionId', 'message'], 'additionalProperties': False}, rule='required')
        data_keys = set(data.keys())
        if "sessionId" in data_keys:
            data_keys.remove("sessionId")
            data__sessionId = data["sessionId"]
            if not isinstance(data__sessionId, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".sessionId must be string", value=data__sessionId, name="" + (name_prefix or "data") + ".sessionId", definition={'type': 'string'}, rule='type')
        if "message" in data_keys:
            data_keys.remove("message")
            data__message = data["message"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_message(data__message, custom_formats, (name_prefix or "data") + ".message")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'sessionId': {'type': 'string'}, 'message': {'type': 'object', 'properties': {'role': {'type': 'string'}, 'content': {'type': ['string', 'null']}, 'toolCalls': {'type': 'array', 'items': {'type': 'object'}}, 'toolCallId': {'type': 'string'}, 'name': {'type': 'string'}, 'kind': {'type': 'string'}, 'timestamp': {'description': 'Epoch milliseconds: a number, or a tagged integer ($int) or number ($num) as in requests.', 'anyOf': [{'type': 'number'}, {'$ref': '#/$defs/taggedInteger'}, {'$ref': '#/$defs/taggedNumber'}]}, 'reasoningContent': {'type': ['string', 'null']}, 'segments': {'type': 'array', 'items': {'type': 'object'}}, 'images': {'type': 'array', 'items': {'type': 'string'}}, 'audios': {'type': 'array', 'items': {'type': 'string'}}, 'metadata': {'type': 'object'}}, 'required': ['role', 'content', 'timestamp'], 'additionalProperties': False}}, 'required': ['sessionId', 'message'], 'additionalProperties': False}, rule='additionalProperties')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_getmessagesbysessionrange(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (list, tuple)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be array", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'array', 'items': {'type': 'object', 'properties': {'role': {'type': 'string'}, 'content': {'type': ['string', 'null']}, 'toolCalls': {'type': 'array', 'items': {'type': 'object'}}, 'toolCallId': {'type': 'string'}, 'name': {'type': 'string'}, 'kind': {'type': 'string'}, 'timestamp': {'description': 'Epoch milliseconds: a number, or a tagged integer ($int) or number ($num) as in requests.', 'anyOf': [{'type': 'number'}, {'$ref': '#/$defs/taggedInteger'}, {'$ref': '#/$defs/taggedNumber'}]}, 'reasoningContent': {'type': ['string', 'null']}, 'segments': {'type': 'array', 'items': {'type': 'object'}}, 'images': {'type': 'array', 'items': {'type': 'string'}}, 'audios': {'type': 'array', 'items': {'type': 'string'}}, 'metadata': {'type': 'object'}}, 'required': ['role', 'content', 'timestamp'], 'additionalProperties': False}}, rule='type')
    data_is_list = isinstance(data, (list, tuple))
    if data_is_list:
        data_len = len(data)
        for data_x, data_item in enumerate(data):
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_message(data_item, custom_formats, (name_prefix or "data") + f"[{data_x}]")
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_counthistory(data, custom_formats={}, name_prefix=None):
    validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_count(data, custom_formats, (name_prefix or "data") + "")
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_getfullhistory(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (list, tuple)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be array", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'array', 'items': {'type': 'object', 'properties': {'role': {'type': 'string'}, 'content': {'type': ['string', 'null']}, 'toolCalls': {'type': 'array', 'items': {'type': 'object'}}, 'toolCallId': {'type': 'string'}, 'name': {'type': 'string'}, 'kind': {'type': 'string'}, 'timestamp': {'description': 'Epoch milliseconds: a number, or a tagged integer ($int) or number ($num) as in requests.', 'anyOf': [{'type': 'number'}, {'$ref': '#/$defs/taggedInteger'}, {'$ref': '#/$defs/taggedNumber'}]}, 'reasoningContent': {'type': ['string', 'null']}, 'segments': {'type': 'array', 'items': {'type': 'object'}}, 'images': {'type': 'array', 'items': {'type': 'string'}}, 'audios': {'type': 'array', 'items': {'type': 'string'}}, 'metadata': {'type': 'object'}}, 'required': ['role', 'content', 'timestamp'], 'additionalProperties': False}}, rule='type')
    data_is_list = isinstance(data, (list, tuple))
    if data_is_list:
        data_len = len(data)
        for data_x, data_item in enumerate(data):
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_message(data_item, custom_formats, (name_prefix or "data") + f"[{data_x}]")
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_clearall(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (NoneType)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be null", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'null'}, rule='type')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_commitmetadata(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (NoneType)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be null", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'null'}, rule='type')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_deletemetadata(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (NoneType)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be null", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'null'}, rule='type')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_listmetadata(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (list, tuple)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be array", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'array', 'items': {'type': 'object', 'properties': {'key': {'type': 'string'}, 'data': {'type': 'object'}, 'updatedAt': {'anyOf': [{'type': 'integer'}, {'$ref': '#/$defs/taggedInteger'}]}}, 'required': ['key', 'data', 'updatedAt'], 'additionalProperties': False}}, rule='type')
    data_is_list = isinstance(data, (list, tuple))
    if data_is_list:
        data_len = len(data)
        for data_x, data_item in enumerate(data):
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_metadataentry(data_item, custom_formats, (name_prefix or "data") + f"[{data_x}]")
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_metadataentry(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'key': {'type': 'string'}, 'data': {'type': 'object'}, 'updatedAt': {'anyOf': [{'type': 'integer'}, {'description': 'An integer JSON cannot carry exactly ({"$int": "<decimal digits>"}): accepted wherever a result holds an integer, as the kit sends it (docs/stdio-protocol.md, Values).', 'type': 'object', 'properties': {'$int': {'type': 'string', 'pattern': '^-?[0-9]+$'}}, 'required': ['$int'], 'additionalProperties': False}]}}, 'required': ['key', 'data', 'updatedAt'], 'additionalProperties': False}, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['key', 'data', 'updatedAt']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'key': {'type': 'string'}, 'data': {'type': 'object'}, 'updatedAt': {'anyOf': [{'type': 'integer'}, {'description': 'An integer JSON cannot carry exactly ({"$int": "<decimal digits>"}): accepted wherever a result holds an integer, as the kit sends it (docs/stdio-protocol.md, Values).', 'type': 'object', 'properties': {'$int': {'type': 'string', 'pattern': '^-?[0-9]+$'}}, 'required': ['$int'], 'additionalProperties': False}]}}, 'required': ['key', 'data', 'updatedAt'], 'additionalProperties': False}, rule='required')
        data_keys = set(data.keys())
        if "key" in data_keys:
            data_keys.remove("key")
            data__key = data["key"]
            if not isinstance(data__key, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".key must be string", value=data__key, name="" + (name_prefix or "data") + ".key", definition={'type': 'string'}, rule='type')
        if "data" in data_keys:
            data_keys.remove("data")
            data__data = data["data"]
            if not isinstance(data__data, (dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".data must be object", value=data__data, name="" + (name_prefix or "data") + ".data", definition={'type': 'object'}, rule='type')
        if "updatedAt" in data_keys:
            data_keys.remove("updatedAt")
            data__updatedAt = data["updatedAt"]
            data__updatedAt_any_of_count3 = 0
            if not data__updatedAt_any_of_count3:
                try:
                    if not isinstance(data__updatedAt, (int)) and not (isinstance(data__updatedAt, float) and data__updatedAt.is_integer()) or isinstance(data__updatedAt, bool):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".updatedAt must be integer", value=data__updatedAt, name="" + (name_prefix or "data") + ".updatedAt", definition={'type': 'integer'}, rule='type')
                    data__updatedAt_any_of_count3 += 1
                except (JsonSchemaValueException, JsonSchemaValuesException): pass
            if not data__updatedAt_any_of_count3:
                try:
                    validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_taggedinteger(data__updatedAt, custom_formats, (name_prefix or "data") + ".updatedAt")
                    data__updatedAt_any_of_count3 += 1
                except (JsonSchemaValueException, JsonSchemaValuesException): pass
            if not data__updatedAt_any_of_count3:
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".updatedAt cannot be validated by any definition", value=data__updatedAt, name="" + (name_prefix or "data") + ".updatedAt", definition={'anyOf': [{'type': 'integer'}, {'description': 'An integer JSON cannot carry exactly ({"$int": "<decimal digits>"}): accepted wherever a result holds an integer, as the kit sends it (docs/stdio-protocol.md, Values).', 'type': 'object', 'properties': {'$int': {'type': 'string', 'pattern': '^-?[0-9]+$'}}, 'required': ['$int'], 'additionalProperties': False}]}, rule='anyOf')
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'key': {'type': 'string'}, 'data': {'type': 'object'}, 'updatedAt': {'anyOf': [{'type': 'integer'}, {'description': 'An integer JSON cannot carry exactly ({"$int": "<decimal digits>"}): accepted wherever a result holds an integer, as the kit sends it (docs/stdio-protocol.md, Values).', 'type': 'object', 'properties': {'$int': {'type': 'string', 'pattern': '^-?[0-9]+$'}}, 'required': ['$int'], 'additionalProperties': False}]}}, 'required': ['key', 'data', 'updatedAt'], 'additionalProperties': False}, rule='additionalProperties')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_getmetadata(data, custom_formats={}, name_prefix=None):
    data_any_of_count4 = 0
    if not data_any_of_count4:
        try:
            if not isinstance(data, (NoneType)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + " must be null", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'null'}, rule='type')
            data_any_of_count4 += 1
        except (JsonSchemaValueException, JsonSchemaValuesException): pass
    if not data_any_of_count4:
        try:
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_jsonobject(data, custom_formats, (name_prefix or "data") + "")
            data_any_of_count4 += 1
        except (JsonSchemaValueException, JsonSchemaValuesException): pass
    if not data_any_of_count4:
        raise JsonSchemaValueException("" + (name_prefix or "data") + " cannot be validated by any definition", value=data, name="" + (name_prefix or "data") + "", definition={'anyOf': [{'type': 'null'}, {'type': 'object'}]}, rule='anyOf')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_jsonobject(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object'}, rule='type')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_savemetadata(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (NoneType)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be null", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'null'}, rule='type')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_archivespan(data, custom_formats={}, name_prefix=None):
    validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_count(data, custom_formats, (name_prefix or "data") + "")
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_clearsession(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (NoneType)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be null", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'null'}, rule='type')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_gethistory(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (list, tuple)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be array", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'array', 'items': {'type': 'object', 'properties': {'role': {'type': 'string'}, 'content': {'type': ['string', 'null']}, 'toolCalls': {'type': 'array', 'items': {'type': 'object'}}, 'toolCallId': {'type': 'string'}, 'name': {'type': 'string'}, 'kind': {'type': 'string'}, 'timestamp': {'description': 'Epoch milliseconds: a number, or a tagged integer ($int) or number ($num) as in requests.', 'anyOf': [{'type': 'number'}, {'$ref': '#/$defs/taggedInteger'}, {'$ref': '#/$defs/taggedNumber'}]}, 'reasoningContent': {'type': ['string', 'null']}, 'segments': {'type': 'array', 'items': {'type': 'object'}}, 'images': {'type': 'array', 'items': {'type': 'string'}}, 'audios': {'type': 'array', 'items': {'type': 'string'}}, 'metadata': {'type': 'object'}}, 'required': ['role', 'content', 'timestamp'], 'additionalProperties': False}}, rule='type')
    data_is_list = isinstance(data, (list, tuple))
    if data_is_list:
        data_len = len(data)
        for data_x, data_item in enumerate(data):
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_message(data_item, custom_formats, (name_prefix or "data") + f"[{data_x}]")
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_savemessage(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (NoneType)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be null", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'null'}, rule='type')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_close(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (NoneType)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be null", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'null'}, rule='type')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_open(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}}, 'required': ['handle'], 'additionalProperties': False}, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['handle']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}}, 'required': ['handle'], 'additionalProperties': False}, rule='required')
        data_keys = set(data.keys())
        if "handle" in data_keys:
            data_keys.remove("handle")
            data__handle = data["handle"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_handle(data__handle, custom_formats, (name_prefix or "data") + ".handle")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}}, 'required': ['handle'], 'additionalProperties': False}, rule='additionalProperties')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_handle(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'string', 'minLength': 1}, rule='type')
    if isinstance(data, str):
        data_len = len(data)
        if data_len < 1:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must be longer than or equal to 1 characters", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'string', 'minLength': 1}, rule='minLength')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_results_hello(data, custom_formats={}, name_prefix=None):
    validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_hello(data, custom_formats, (name_prefix or "data") + "")
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_hello(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'protocolVersion': {'const': 1}, 'adapter': {'type': 'string', 'minLength': 1}, 'capabilities': {'type': 'object', 'properties': {'ordering': {'enum': ['timestamp', 'write']}, 'metadataAtomicity': {'enum': ['atomic', 'ordered']}, 'archiveAtomicity': {'enum': ['atomic', 'partial']}, 'rangeCap': {'type': 'boolean', 'description': 'whether a session range read is cut at rangeQueryLimit; absent means true, false excludes RANGE-01 by tier'}}, 'required': ['ordering', 'metadataAtomicity', 'archiveAtomicity'], 'additionalProperties': False}, 'methods': {'type': 'array', 'items': {'enum': ['saveMessage', 'getHistory', 'clearSession', 'archiveSpan', 'saveMetadata', 'getMetadata', 'listMetadata', 'deleteMetadata', 'commitMetadata', 'clearAll', 'getFullHistory', 'countHistory', 'getMessagesBySessionRange', 'getRecentMessagesAcrossSessions', 'listMetadataKeys', 'updateMessageContent', 'deleteMessagesByTimestamps', 'plantRawMetadata']}, 'description': 'The contract methods the backend has (required and optional), and plantRawMetadata when raw access exists. A list naming no required method (the first form of the handshake) has them all.'}, 'rawMetadata': {'type': 'boolean'}, 'knownFailures': {'description': "Rules the adapter is known to break, each with its reason (reported 'known failure'; a listed rule that passes fails the run).", 'type': 'object', 'additionalProperties': {'type': 'string', 'minLength': 1}}, 'transport': {'description': "What the adapter's language holds: the largest integer it holds as a number (safeInteger) and which values JSON cannot spell it makes in its own terms (kinds). A check needing anything else is reported unverified. Absent: the tags of the first form of the protocol, nesting cut at 40 levels.", 'type': 'object', 'properties': {'language': {'type': 'string', 'minLength': 1}, 'safeInteger': {'description': "A positive integer; past 2**53 (an int64 language's 2**63 - 1) it may travel as $int.", 'anyOf': [{'type': 'integer', 'minimum': 1}, {'type': 'object', 'properties': {'$int': {'type': 'string', 'pattern': '^[1-9][0-9]*$'}}, 'required': ['$int'], 'additionalProperties': False}]}, 'kinds': {'type': 'array', 'items': {'enum': ['non-finite', 'big-integer', 'bytes', 'map', 'opaque', 'cycle', 'deep']}}}, 'required': ['language', 'safeInteger', 'kinds'], 'additionalProperties': False}, 'isolation': {'description': 'Whether the adapter runs the isolation probe (isolationProbe): ISO-01/02 seen in its own process.', 'type': 'boolean'}, 'durable': {'description': 'Whether the store outlives the adapter: open then gets a path, and a store opened on a path that holds one is that store (CRASH-01/02 run).', 'type': 'boolean'}, 'documentedBackend': {'description': 'Which backend of the documents this is, if any.', 'enum': ['inmemory', 'sqlite', 'mongodb']}, 'skipQuickScaling': {'description': "Why the backend cannot afford the quick scaling probe the kit runs by default: PERF-01 is then reported 'not run' with this reason, unless the kit runs with --memory-scaling.", 'type': 'string', 'minLength': 1}}, 'required': ['protocolVersion', 'adapter', 'capabilities', 'methods', 'rawMetadata'], 'additionalProperties': False}, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['protocolVersion', 'adapter', 'capabilities', 'methods', 'rawMetadata']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'protocolVersion': {'const': 1}, 'adapter': {'type': 'string', 'minLength': 1}, 'capabilities': {'type': 'object', 'properties': {'ordering': {'enum': ['timestamp', 'write']}, 'metadataAtomicity': {'enum': ['atomic', 'ordered']}, 'archiveAtomicity': {'enum': ['atomic', 'partial']}, 'rangeCap': {'type': 'boolean', 'description': 'whether a session range read is cut at rangeQueryLimit; absent means true, false excludes RANGE-01 by tier'}}, 'required': ['ordering', 'metadataAtomicity', 'archiveAtomicity'], 'additionalProperties': False}, 'methods': {'type': 'array', 'items': {'enum': ['saveMessage', 'getHistory', 'clearSession', 'archiveSpan', 'saveMetadata', 'getMetadata', 'listMetadata', 'deleteMetadata', 'commitMetadata', 'clearAll', 'getFullHistory', 'countHistory', 'getMessagesBySessionRange', 'getRecentMessagesAcrossSessions', 'listMetadataKeys', 'updateMessageContent', 'deleteMessagesByTimestamps', 'plantRawMetadata']}, 'description': 'The contract methods the backend has (required and optional), and plantRawMetadata when raw access exists. A list naming no required method (the first form of the handshake) has them all.'}, 'rawMetadata': {'type': 'boolean'}, 'knownFailures': {'description': "Rules the adapter is known to break, each with its reason (reported 'known failure'; a listed rule that passes fails the run).", 'type': 'object', 'additionalProperties': {'type': 'string', 'minLength': 1}}, 'transport': {'description': "What the adapter's language holds: the largest integer it holds as a number (safeInteger) and which values JSON cannot spell it makes in its own terms (kinds). A check needing anything else is reported unverified. Absent: the tags of the first form of the protocol, nesting cut at 40 levels.", 'type': 'object', 'properties': {'language': {'type': 'string', 'minLength': 1}, 'safeInteger': {'description': "A positive integer; past 2**53 (an int64 language's 2**63 - 1) it may travel as $int.", 'anyOf': [{'type': 'integer', 'minimum': 1}, {'type': 'object', 'properties': {'$int': {'type': 'string', 'pattern': '^[1-9][0-9]*$'}}, 'required': ['$int'], 'additionalProperties': False}]}, 'kinds': {'type': 'array', 'items': {'enum': ['non-finite', 'big-integer', 'bytes', 'map', 'opaque', 'cycle', 'deep']}}}, 'required': ['language', 'safeInteger', 'kinds'], 'additionalProperties': False}, 'isolation': {'description': 'Whether the adapter runs the isolation probe (isolationProbe): ISO-01/02 seen in its own process.', 'type': 'boolean'}, 'durable': {'description': 'Whether the store outlives the adapter: open then gets a path, and a store opened on a path that holds one is that store (CRASH-01/02 run).', 'type': 'boolean'}, 'documentedBackend': {'description': 'Which backend of the documents this is, if any.', 'enum': ['inmemory', 'sqlite', 'mongodb']}, 'skipQuickScaling': {'description': "Why the backend cannot afford the quick scaling probe the kit runs by default: PERF-01 is then reported 'not run' with this reason, unless the kit runs with --memory-scaling.", 'type': 'string', 'minLength': 1}}, 'required': ['protocolVersion', 'adapter', 'capabilities', 'methods', 'rawMetadata'], 'additionalProperties': False}, rule='required')
        data_keys = set(data.keys())
        if "protocolVersion" in data_keys:
            data_keys.remove("protocolVersion")
            data__protocolVersion = data["protocolVersion"]
            if not (isinstance(data__protocolVersion, (int, float)) and not isinstance(data__protocolVersion, bool) and data__protocolVersion == 1):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".protocolVersion must be same as const definition: 1", value=data__protocolVersion, name="" + (name_prefix or "data") + ".protocolVersion", definition={'const': 1}, rule='const')
        if "adapter" in data_keys:
            data_keys.remove("adapter")
            data__adapter = data["adapter"]
            if not isinstance(data__adapter, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".adapter must be string", value=data__adapter, name="" + (name_prefix or "data") + ".adapter", definition={'type': 'string', 'minLength': 1}, rule='type')
            if isinstance(data__adapter, str):
                data__adapter_len = len(data__adapter)
                if data__adapter_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".adapter must be longer than or equal to 1 characters", value=data__adapter, name="" + (name_prefix or "data") + ".adapter", definition={'type': 'string', 'minLength': 1}, rule='minLength')
        if "capabilities" in data_keys:
            data_keys.remove("capabilities")
            data__capabilities = data["capabilities"]
            if not isinstance(data__capabilities, (dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".capabilities must be object", value=data__capabilities, name="" + (name_prefix or "data") + ".capabilities", definition={'type': 'object', 'properties': {'ordering': {'enum': ['timestamp', 'write']}, 'metadataAtomicity': {'enum': ['atomic', 'ordered']}, 'archiveAtomicity': {'enum': ['atomic', 'partial']}, 'rangeCap': {'type': 'boolean', 'description': 'whether a session range read is cut at rangeQueryLimit; absent means true, false excludes RANGE-01 by tier'}}, 'required': ['ordering', 'metadataAtomicity', 'archiveAtomicity'], 'additionalProperties': False}, rule='type')
            data__capabilities_is_dict = isinstance(data__capabilities, dict)
            if data__capabilities_is_dict:
                data__capabilities__missing_keys = set(['ordering', 'metadataAtomicity', 'archiveAtomicity']) - data__capabilities.keys()
                if data__capabilities__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".capabilities must contain " + (str(sorted(data__capabilities__missing_keys)) + " properties"), value=data__capabilities, name="" + (name_prefix or "data") + ".capabilities", definition={'type': 'object', 'properties': {'ordering': {'enum': ['timestamp', 'write']}, 'metadataAtomicity': {'enum': ['atomic', 'ordered']}, 'archiveAtomicity': {'enum': ['atomic', 'partial']}, 'rangeCap': {'type': 'boolean', 'description': 'whether a session range read is cut at rangeQueryLimit; absent means true, false excludes RANGE-01 by tier'}}, 'required': ['ordering', 'metadataAtomicity', 'archiveAtomicity'], 'additionalProperties': False}, rule='required')
                data__capabilities_keys = set(data__capabilities.keys())
                if "ordering" in data__capabilities_keys:
                    data__capabilities_keys.remove("ordering")
                    data__capabilities__ordering = data__capabilities["ordering"]
                    if not (isinstance(data__capabilities__ordering, str) and data__capabilities__ordering == 'timestamp' or isinstance(data__capabilities__ordering, str) and data__capabilities__ordering == 'write'):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".capabilities.ordering must be one of ['timestamp', 'write']", value=data__capabilities__ordering, name="" + (name_prefix or "data") + ".capabilities.ordering", definition={'enum': ['timestamp', 'write']}, rule='enum')
                if "metadataAtomicity" in data__capabilities_keys:
                    data__capabilities_keys.remove("metadataAtomicity")
                    data__capabilities__metadataAtomicity = data__capabilities["metadataAtomicity"]
                    if not (isinstance(data__capabilities__metadataAtomicity, str) and data__capabilities__metadataAtomicity == 'atomic' or isinstance(data__capabilities__metadataAtomicity, str) and data__capabilities__metadataAtomicity == 'ordered'):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".capabilities.metadataAtomicity must be one of ['atomic', 'ordered']", value=data__capabilities__metadataAtomicity, name="" + (name_prefix or "data") + ".capabilities.metadataAtomicity", definition={'enum': ['atomic', 'ordered']}, rule='enum')
                if "archiveAtomicity" in data__capabilities_keys:
                    data__capabilities_keys.remove("archiveAtomicity")
                    data__capabilities__archiveAtomicity = data__capabilities["archiveAtomicity"]
                    if not (isinstance(data__capabilities__archiveAtomicity, str) and data__capabilities__archiveAtomicity == 'atomic' or isinstance(data__capabilities__archiveAtomicity, str) and data__capabilities__archiveAtomicity == 'partial'):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".capabilities.archiveAtomicity must be one of ['atomic', 'partial']", value=data__capabilities__archiveAtomicity, name="" + (name_prefix or "data") + ".capabilities.archiveAtomicity", definition={'enum': ['atomic', 'partial']}, rule='enum')
                if "rangeCap" in data__capabilities_keys:
                    data__capabilities_keys.remove("rangeCap")
                    data__capabilities__rangeCap = data__capabilities["rangeCap"]
                    if not isinstance(data__capabilities__rangeCap, (bool)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".capabilities.rangeCap must be boolean", value=data__capabilities__rangeCap, name="" + (name_prefix or "data") + ".capabilities.rangeCap", definition={'type': 'boolean', 'description': 'whether a session range read is cut at rangeQueryLimit; absent means true, false excludes RANGE-01 by tier'}, rule='type')
                if data__capabilities_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".capabilities must not contain "+str(data__capabilities_keys)+" properties", value=data__capabilities, name="" + (name_prefix or "data") + ".capabilities", definition={'type': 'object', 'properties': {'ordering': {'enum': ['timestamp', 'write']}, 'metadataAtomicity': {'enum': ['atomic', 'ordered']}, 'archiveAtomicity': {'enum': ['atomic', 'partial']}, 'rangeCap': {'type': 'boolean', 'description': 'whether a session range read is cut at rangeQueryLimit; absent means true, false excludes RANGE-01 by tier'}}, 'required': ['ordering', 'metadataAtomicity', 'archiveAtomicity'], 'additionalProperties': False}, rule='additionalProperties')
        if "methods" in data_keys:
            data_keys.remove("methods")
            data__methods = data["methods"]
            if not isinstance(data__methods, (list, tuple)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".methods must be array", value=data__methods, name="" + (name_prefix or "data") + ".methods", definition={'type': 'array', 'items': {'enum': ['saveMessage', 'getHistory', 'clearSession', 'archiveSpan', 'saveMetadata', 'getMetadata', 'listMetadata', 'deleteMetadata', 'commitMetadata', 'clearAll', 'getFullHistory', 'countHistory', 'getMessagesBySessionRange', 'getRecentMessagesAcrossSessions', 'listMetadataKeys', 'updateMessageContent', 'deleteMessagesByTimestamps', 'plantRawMetadata']}, 'description': 'The contract methods the backend has (required and optional), and plantRawMetadata when raw access exists. A list naming no required method (the first form of the handshake) has them all.'}, rule='type')
            data__methods_is_list = isinstance(data__methods, (list, tuple))
            if data__methods_is_list:
                data__methods_len = len(data__methods)
                for data__methods_x, data__methods_item in enumerate(data__methods):
                    if not (isinstance(data__methods_item, str) and data__methods_item == 'saveMessage' or isinstance(data__methods_item, str) and data__methods_item == 'getHistory' or isinstance(data__methods_item, str) and data__methods_item == 'clearSession' or isinstance(data__methods_item, str) and data__methods_item == 'archiveSpan' or isinstance(data__methods_item, str) and data__methods_item == 'saveMetadata' or isinstance(data__methods_item, str) and data__methods_item == 'getMetadata' or isinstance(data__methods_item, str) and data__methods_item == 'listMetadata' or isinstance(data__methods_item, str) and data__methods_item == 'deleteMetadata' or isinstance(data__methods_item, str) and data__methods_item == 'commitMetadata' or isinstance(data__methods_item, str) and data__methods_item == 'clearAll' or isinstance(data__methods_item, str) and data__methods_item == 'getFullHistory' or isinstance(data__methods_item, str) and data__methods_item == 'countHistory' or isinstance(data__methods_item, str) and data__methods_item == 'getMessagesBySessionRange' or isinstance(data__methods_item, str) and data__methods_item == 'getRecentMessagesAcrossSessions' or isinstance(data__methods_item, str) and data__methods_item == 'listMetadataKeys' or isinstance(data__methods_item, str) and data__methods_item == 'updateMessageContent' or isinstance(data__methods_item, str) and data__methods_item == 'deleteMessagesByTimestamps' or isinstance(data__methods_item, str) and data__methods_item == 'plantRawMetadata'):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + f".methods[{data__methods_x}]" + " must be one of ['saveMessage', 'getHistory', 'clearSession', 'archiveSpan', 'saveMetadata', 'getMetadata', 'listMetadata', 'deleteMetadata', 'commitMetadata', 'clearAll', 'getFullHistory', 'countHistory', 'getMessagesBySessionRange', 'getRecentMessagesAcrossSessions', 'listMetadataKeys', 'updateMessageContent', 'deleteMessagesByTimestamps', 'plantRawMetadata']", value=data__methods_item, name="" + (name_prefix or "data") + f".methods[{data__methods_x}]" + "", definition={'enum': ['saveMessage', 'getHistory', 'clearSession', 'archiveSpan', 'saveMetadata', 'getMetadata', 'listMetadata', 'deleteMetadata', 'commitMetadata', 'clearAll', 'getFullHistory', 'countHistory', 'getMessagesBySessionRange', 'getRecentMessagesAcrossSessions', 'listMetadataKeys', 'updateMessageContent', 'deleteMessagesByTimestamps', 'plantRawMetadata']}, rule='enum')
        if "rawMetadata" in data_keys:
            data_keys.remove("rawMetadata")
            data__rawMetadata = data["rawMetadata"]
            if not isinstance(data__rawMetadata, (bool)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".rawMetadata must be boolean", value=data__rawMetadata, name="" + (name_prefix or "data") + ".rawMetadata", definition={'type': 'boolean'}, rule='type')
        if "knownFailures" in data_keys:
            data_keys.remove("knownFailures")
            data__knownFailures = data["knownFailures"]
            if not isinstance(data__knownFailures, (dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".knownFailures must be object", value=data__knownFailures, name="" + (name_prefix or "data") + ".knownFailures", definition={'description': "Rules the adapter is known to break, each with its reason (reported 'known failure'; a listed rule that passes fails the run).", 'type': 'object', 'additionalProperties': {'type': 'string', 'minLength': 1}}, rule='type')
            data__knownFailures_is_dict = isinstance(data__knownFailures, dict)
            if data__knownFailures_is_dict:
                data__knownFailures_keys = set(data__knownFailures.keys())
                for data__knownFailures_key in data__knownFailures_keys:
                    if data__knownFailures_key not in []:
                        data__knownFailures_value = data__knownFailures.get(data__knownFailures_key)
                        if not isinstance(data__knownFailures_value, (str)):
                            raise JsonSchemaValueException("" + (name_prefix or "data") + f".knownFailures.{data__knownFailures_key}" + " must be string", value=data__knownFailures_value, name="" + (name_prefix or "data") + f".knownFailures.{data__knownFailures_key}" + "", definition={'type': 'string', 'minLength': 1}, rule='type')
                        if isinstance(data__knownFailures_value, str):
                            data__knownFailures_value_len = len(data__knownFailures_value)
                            if data__knownFailures_value_len < 1:
                                raise JsonSchemaValueException("" + (name_prefix or "data") + f".knownFailures.{data__knownFailures_key}" + " must be longer than or equal to 1 characters", value=data__knownFailures_value, name="" + (name_prefix or "data") + f".knownFailures.{data__knownFailures_key}" + "", definition={'type': 'string', 'minLength': 1}, rule='minLength')
        if "transport" in data_keys:
            data_keys.remove("transport")
            data__transport = data["transport"]
            if not isinstance(data__transport, (dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".transport must be object", value=data__transport, name="" + (name_prefix or "data") + ".transport", definition={'description': "What the adapter's language holds: the largest integer it holds as a number (safeInteger) and which values JSON cannot spell it makes in its own terms (kinds). A check needing anything else is reported unverified. Absent: the tags of the first form of the protocol, nesting cut at 40 levels.", 'type': 'object', 'properties': {'language': {'type': 'string', 'minLength': 1}, 'safeInteger': {'description': "A positive integer; past 2**53 (an int64 language's 2**63 - 1) it may travel as $int.", 'anyOf': [{'type': 'integer', 'minimum': 1}, {'type': 'object', 'properties': {'$int': {'type': 'string', 'pattern': '^[1-9][0-9]*$'}}, 'required': ['$int'], 'additionalProperties': False}]}, 'kinds': {'type': 'array', 'items': {'enum': ['non-finite', 'big-integer', 'bytes', 'map', 'opaque', 'cycle', 'deep']}}}, 'required': ['language', 'safeInteger', 'kinds'], 'additionalProperties': False}, rule='type')
            data__transport_is_dict = isinstance(data__transport, dict)
            if data__transport_is_dict:
                data__transport__missing_keys = set(['language', 'safeInteger', 'kinds']) - data__transport.keys()
                if data__transport__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".transport must contain " + (str(sorted(data__transport__missing_keys)) + " properties"), value=data__transport, name="" + (name_prefix or "data") + ".transport", definition={'description': "What the adapter's language holds: the largest integer it holds as a number (safeInteger) and which values JSON cannot spell it makes in its own terms (kinds). A check needing anything else is reported unverified. Absent: the tags of the first form of the protocol, nesting cut at 40 levels.", 'type': 'object', 'properties': {'language': {'type': 'string', 'minLength': 1}, 'safeInteger': {'description': "A positive integer; past 2**53 (an int64 language's 2**63 - 1) it may travel as $int.", 'anyOf': [{'type': 'integer', 'minimum': 1}, {'type': 'object', 'properties': {'$int': {'type': 'string', 'pattern': '^[1-9][0-9]*$'}}, 'required': ['$int'], 'additionalProperties': False}]}, 'kinds': {'type': 'array', 'items': {'enum': ['non-finite', 'big-integer', 'bytes', 'map', 'opaque', 'cycle', 'deep']}}}, 'required': ['language', 'safeInteger', 'kinds'], 'additionalProperties': False}, rule='required')
                data__transport_keys = set(data__transport.keys())
                if "language" in data__transport_keys:
                    data__transport_keys.remove("language")
                    data__transport__language = data__transport["language"]
                    if not isinstance(data__transport__language, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".transport.language must be string", value=data__transport__language, name="" + (name_prefix or "data") + ".transport.language", definition={'type': 'string', 'minLength': 1}, rule='type')
                    if isinstance(data__transport__language, str):
                        data__transport__language_len = len(data__transport__language)
                        if data__transport__language_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".transport.language must be longer than or equal to 1 characters", value=data__transport__language, name="" + (name_prefix or "data") + ".transport.language", definition={'type': 'string', 'minLength': 1}, rule='minLength')
                if "safeInteger" in data__transport_keys:
                    data__transport_keys.remove("safeInteger")
                    data__transport__safeInteger = data__transport["safeInteger"]
                    data__transport__safeInteger_any_of_count5 = 0
                    if not data__transport__safeInteger_any_of_count5:
                        try:
                            if not isinstance(data__transport__safeInteger, (int)) and not (isinstance(data__transport__safeInteger, float) and data__transport__safeInteger.is_integer()) or isinstance(data__transport__safeInteger, bool):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".transport.safeInteger must be integer", value=data__transport__safeInteger, name="" + (name_prefix or "data") + ".transport.safeInteger", definition={'type': 'integer', 'minimum': 1}, rule='type')
                            if isinstance(data__transport__safeInteger, (int, float, Decimal)) and not isinstance(data__transport__safeInteger, bool):
                                if data__transport__safeInteger < 1:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".transport.safeInteger must be bigger than or equal to 1", value=data__transport__safeInteger, name="" + (name_prefix or "data") + ".transport.safeInteger", definition={'type': 'integer', 'minimum': 1}, rule='minimum')
                            data__transport__safeInteger_any_of_count5 += 1
                        except (JsonSchemaValueException, JsonSchemaValuesException): pass
                    if not data__transport__safeInteger_any_of_count5:
                        try:
                            if not isinstance(data__transport__safeInteger, (dict)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".transport.safeInteger must be object", value=data__transport__safeInteger, name="" + (name_prefix or "data") + ".transport.safeInteger", definition={'type': 'object', 'properties': {'$int': {'type': 'string', 'pattern': '^[1-9][0-9]*$'}}, 'required': ['$int'], 'additionalProperties': False}, rule='type')
                            data__transport__safeInteger_is_dict = isinstance(data__transport__safeInteger, dict)
                            if data__transport__safeInteger_is_dict:
                                data__transport__safeInteger__missing_keys = set(['$int']) - data__transport__safeInteger.keys()
                                if data__transport__safeInteger__missing_keys:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".transport.safeInteger must contain " + (str(sorted(data__transport__safeInteger__missing_keys)) + " properties"), value=data__transport__safeInteger, name="" + (name_prefix or "data") + ".transport.safeInteger", definition={'type': 'object', 'properties': {'$int': {'type': 'string', 'pattern': '^[1-9][0-9]*$'}}, 'required': ['$int'], 'additionalProperties': False}, rule='required')
                                data__transport__safeInteger_keys = set(data__transport__safeInteger.keys())
                                if "$int" in data__transport__safeInteger_keys:
                                    data__transport__safeInteger_keys.remove("$int")
                                    data__transport__safeInteger__int = data__transport__safeInteger["$int"]
                                    if not isinstance(data__transport__safeInteger__int, (str)):
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".transport.safeInteger.$int must be string", value=data__transport__safeInteger__int, name="" + (name_prefix or "data") + ".transport.safeInteger.$int", definition={'type': 'string', 'pattern': '^[1-9][0-9]*$'}, rule='type')
                                    if isinstance(data__transport__safeInteger__int, str):
                                        if not REGEX_PATTERNS['^[1-9][0-9]*$'].search(data__transport__safeInteger__int):
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".transport.safeInteger.$int must match pattern ^[1-9][0-9]*$", value=data__transport__safeInteger__int, name="" + (name_prefix or "data") + ".transport.safeInteger.$int", definition={'type': 'string', 'pattern': '^[1-9][0-9]*$'}, rule='pattern')
                                if data__transport__safeInteger_keys:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".transport.safeInteger must not contain "+str(data__transport__safeInteger_keys)+" properties", value=data__transport__safeInteger, name="" + (name_prefix or "data") + ".transport.safeInteger", definition={'type': 'object', 'properties': {'$int': {'type': 'string', 'pattern': '^[1-9][0-9]*$'}}, 'required': ['$int'], 'additionalProperties': False}, rule='additionalProperties')
                            data__transport__safeInteger_any_of_count5 += 1
                        except (JsonSchemaValueException, JsonSchemaValuesException): pass
                    if not data__transport__safeInteger_any_of_count5:
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".transport.safeInteger cannot be validated by any definition", value=data__transport__safeInteger, name="" + (name_prefix or "data") + ".transport.safeInteger", definition={'description': "A positive integer; past 2**53 (an int64 language's 2**63 - 1) it may travel as $int.", 'anyOf': [{'type': 'integer', 'minimum': 1}, {'type': 'object', 'properties': {'$int': {'type': 'string', 'pattern': '^[1-9][0-9]*$'}}, 'required': ['$int'], 'additionalProperties': False}]}, rule='anyOf')
                if "kinds" in data__transport_keys:
                    data__transport_keys.remove("kinds")
                    data__transport__kinds = data__transport["kinds"]
                    if not isinstance(data__transport__kinds, (list, tuple)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".transport.kinds must be array", value=data__transport__kinds, name="" + (name_prefix or "data") + ".transport.kinds", definition={'type': 'array', 'items': {'enum': ['non-finite', 'big-integer', 'bytes', 'map', 'opaque', 'cycle', 'deep']}}, rule='type')
                    data__transport__kinds_is_list = isinstance(data__transport__kinds, (list, tuple))
                    if data__transport__kinds_is_list:
                        data__transport__kinds_len = len(data__transport__kinds)
                        for data__transport__kinds_x, data__transport__kinds_item in enumerate(data__transport__kinds):
                            if not (isinstance(data__transport__kinds_item, str) and data__transport__kinds_item == 'non-finite' or isinstance(data__transport__kinds_item, str) and data__transport__kinds_item == 'big-integer' or isinstance(data__transport__kinds_item, str) and data__transport__kinds_item == 'bytes' or isinstance(data__transport__kinds_item, str) and data__transport__kinds_item == 'map' or isinstance(data__transport__kinds_item, str) and data__transport__kinds_item == 'opaque' or isinstance(data__transport__kinds_item, str) and data__transport__kinds_item == 'cycle' or isinstance(data__transport__kinds_item, str) and data__transport__kinds_item == 'deep'):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + f".transport.kinds[{data__transport__kinds_x}]" + " must be one of ['non-finite', 'big-integer', 'bytes', 'map', 'opaque', 'cycle', 'deep']", value=data__transport__kinds_item, name="" + (name_prefix or "data") + f".transport.kinds[{data__transport__kinds_x}]" + "", definition={'enum': ['non-finite', 'big-integer', 'bytes', 'map', 'opaque', 'cycle', 'deep']}, rule='enum')
                if data__transport_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".transport must not contain "+str(data__transport_keys)+" properties", value=data__transport, name="" + (name_prefix or "data") + ".transport", definition={'description': "What the adapter's language holds: the largest integer it holds as a number (safeInteger) and which values JSON cannot spell it makes in its own terms (kinds). A check needing anything else is reported unverified. Absent: the tags of the first form of the protocol, nesting cut at 40 levels.", 'type': 'object', 'properties': {'language': {'type': 'string', 'minLength': 1}, 'safeInteger': {'description': "A positive integer; past 2**53 (an int64 language's 2**63 - 1) it may travel as $int.", 'anyOf': [{'type': 'integer', 'minimum': 1}, {'type': 'object', 'properties': {'$int': {'type': 'string', 'pattern': '^[1-9][0-9]*$'}}, 'required': ['$int'], 'additionalProperties': False}]}, 'kinds': {'type': 'array', 'items': {'enum': ['non-finite', 'big-integer', 'bytes', 'map', 'opaque', 'cycle', 'deep']}}}, 'required': ['language', 'safeInteger', 'kinds'], 'additionalProperties': False}, rule='additionalProperties')
        if "isolation" in data_keys:
            data_keys.remove("isolation")
            data__isolation = data["isolation"]
            if not isinstance(data__isolation, (bool)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".isolation must be boolean", value=data__isolation, name="" + (name_prefix or "data") + ".isolation", definition={'description': 'Whether the adapter runs the isolation probe (isolationProbe): ISO-01/02 seen in its own process.', 'type': 'boolean'}, rule='type')
        if "durable" in data_keys:
            data_keys.remove("durable")
            data__durable = data["durable"]
            if not isinstance(data__durable, (bool)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".durable must be boolean", value=data__durable, name="" + (name_prefix or "data") + ".durable", definition={'description': 'Whether the store outlives the adapter: open then gets a path, and a store opened on a path that holds one is that store (CRASH-01/02 run).', 'type': 'boolean'}, rule='type')
        if "documentedBackend" in data_keys:
            data_keys.remove("documentedBackend")
            data__documentedBackend = data["documentedBackend"]
            if not (isinstance(data__documentedBackend, str) and data__documentedBackend == 'inmemory' or isinstance(data__documentedBackend, str) and data__documentedBackend == 'sqlite' or isinstance(data__documentedBackend, str) and data__documentedBackend == 'mongodb'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".documentedBackend must be one of ['inmemory', 'sqlite', 'mongodb']", value=data__documentedBackend, name="" + (name_prefix or "data") + ".documentedBackend", definition={'description': 'Which backend of the documents this is, if any.', 'enum': ['inmemory', 'sqlite', 'mongodb']}, rule='enum')
        if "skipQuickScaling" in data_keys:
            data_keys.remove("skipQuickScaling")
            data__skipQuickScaling = data["skipQuickScaling"]
            if not isinstance(data__skipQuickScaling, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".skipQuickScaling must be string", value=data__skipQuickScaling, name="" + (name_prefix or "data") + ".skipQuickScaling", definition={'description': "Why the backend cannot afford the quick scaling probe the kit runs by default: PERF-01 is then reported 'not run' with this reason, unless the kit runs with --memory-scaling.", 'type': 'string', 'minLength': 1}, rule='type')
            if isinstance(data__skipQuickScaling, str):
                data__skipQuickScaling_len = len(data__skipQuickScaling)
                if data__skipQuickScaling_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".skipQuickScaling must be longer than or equal to 1 characters", value=data__skipQuickScaling, name="" + (name_prefix or "data") + ".skipQuickScaling", definition={'description': "Why the backend cannot afford the quick scaling probe the kit runs by default: PERF-01 is then reported 'not run' with this reason, unless the kit runs with --memory-scaling.", 'type': 'string', 'minLength': 1}, rule='minLength')
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'protocolVersion': {'const': 1}, 'adapter': {'type': 'string', 'minLength': 1}, 'capabilities': {'type': 'object', 'properties': {'ordering': {'enum': ['timestamp', 'write']}, 'metadataAtomicity': {'enum': ['atomic', 'ordered']}, 'archiveAtomicity': {'enum': ['atomic', 'partial']}, 'rangeCap': {'type': 'boolean', 'description': 'whether a session range read is cut at rangeQueryLimit; absent means true, false excludes RANGE-01 by tier'}}, 'required': ['ordering', 'metadataAtomicity', 'archiveAtomicity'], 'additionalProperties': False}, 'methods': {'type': 'array', 'items': {'enum': ['saveMessage', 'getHistory', 'clearSession', 'archiveSpan', 'saveMetadata', 'getMetadata', 'listMetadata', 'deleteMetadata', 'commitMetadata', 'clearAll', 'getFullHistory', 'countHistory', 'getMessagesBySessionRange', 'getRecentMessagesAcrossSessions', 'listMetadataKeys', 'updateMessageContent', 'deleteMessagesByTimestamps', 'plantRawMetadata']}, 'description': 'The contract methods the backend has (required and optional), and plantRawMetadata when raw access exists. A list naming no required method (the first form of the handshake) has them all.'}, 'rawMetadata': {'type': 'boolean'}, 'knownFailures': {'description': "Rules the adapter is known to break, each with its reason (reported 'known failure'; a listed rule that passes fails the run).", 'type': 'object', 'additionalProperties': {'type': 'string', 'minLength': 1}}, 'transport': {'description': "What the adapter's language holds: the largest integer it holds as a number (safeInteger) and which values JSON cannot spell it makes in its own terms (kinds). A check needing anything else is reported unverified. Absent: the tags of the first form of the protocol, nesting cut at 40 levels.", 'type': 'object', 'properties': {'language': {'type': 'string', 'minLength': 1}, 'safeInteger': {'description': "A positive integer; past 2**53 (an int64 language's 2**63 - 1) it may travel as $int.", 'anyOf': [{'type': 'integer', 'minimum': 1}, {'type': 'object', 'properties': {'$int': {'type': 'string', 'pattern': '^[1-9][0-9]*$'}}, 'required': ['$int'], 'additionalProperties': False}]}, 'kinds': {'type': 'array', 'items': {'enum': ['non-finite', 'big-integer', 'bytes', 'map', 'opaque', 'cycle', 'deep']}}}, 'required': ['language', 'safeInteger', 'kinds'], 'additionalProperties': False}, 'isolation': {'description': 'Whether the adapter runs the isolation probe (isolationProbe): ISO-01/02 seen in its own process.', 'type': 'boolean'}, 'durable': {'description': 'Whether the store outlives the adapter: open then gets a path, and a store opened on a path that holds one is that store (CRASH-01/02 run).', 'type': 'boolean'}, 'documentedBackend': {'description': 'Which backend of the documents this is, if any.', 'enum': ['inmemory', 'sqlite', 'mongodb']}, 'skipQuickScaling': {'description': "Why the backend cannot afford the quick scaling probe the kit runs by default: PERF-01 is then reported 'not run' with this reason, unless the kit runs with --memory-scaling.", 'type': 'string', 'minLength': 1}}, 'required': ['protocolVersion', 'adapter', 'capabilities', 'methods', 'rawMetadata'], 'additionalProperties': False}, rule='additionalProperties')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_isolationprobe(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'sessionId': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'mutate': {'enum': ['saved', 'returned']}, 'messages': {'type': 'array'}, 'read': {'enum': ['getHistory', 'getFullHistory', 'getMessagesBySessionRange', 'getRecentMessagesAcrossSessions']}, 'readParams': {'type': 'object'}}, 'required': ['handle', 'sessionId', 'mutate', 'messages', 'read', 'readParams'], 'additionalProperties': False}, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['handle', 'sessionId', 'mutate', 'messages', 'read', 'readParams']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'sessionId': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'mutate': {'enum': ['saved', 'returned']}, 'messages': {'type': 'array'}, 'read': {'enum': ['getHistory', 'getFullHistory', 'getMessagesBySessionRange', 'getRecentMessagesAcrossSessions']}, 'readParams': {'type': 'object'}}, 'required': ['handle', 'sessionId', 'mutate', 'messages', 'read', 'readParams'], 'additionalProperties': False}, rule='required')
        data_keys = set(data.keys())
        if "handle" in data_keys:
            data_keys.remove("handle")
            data__handle = data["handle"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_handle(data__handle, custom_formats, (name_prefix or "data") + ".handle")
        if "sessionId" in data_keys:
            data_keys.remove("sessionId")
            data__sessionId = data["sessionId"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_value(data__sessionId, custom_formats, (name_prefix or "data") + ".sessionId")
        if "mutate" in data_keys:
            data_keys.remove("mutate")
            data__mutate = data["mutate"]
            if not (isinstance(data__mutate, str) and data__mutate == 'saved' or isinstance(data__mutate, str) and data__mutate == 'returned'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".mutate must be one of ['saved', 'returned']", value=data__mutate, name="" + (name_prefix or "data") + ".mutate", definition={'enum': ['saved', 'returned']}, rule='enum')
        if "messages" in data_keys:
            data_keys.remove("messages")
            data__messages = data["messages"]
            if not isinstance(data__messages, (list, tuple)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".messages must be array", value=data__messages, name="" + (name_prefix or "data") + ".messages", definition={'type': 'array'}, rule='type')
        if "read" in data_keys:
            data_keys.remove("read")
            data__read = data["read"]
            if not (isinstance(data__read, str) and data__read == 'getHistory' or isinstance(data__read, str) and data__read == 'getFullHistory' or isinstance(data__read, str) and data__read == 'getMessagesBySessionRange' or isinstance(data__read, str) and data__read == 'getRecentMessagesAcrossSessions'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".read must be one of ['getHistory', 'getFullHistory', 'getMessagesBySessionRange', 'getRecentMessagesAcrossSessions']", value=data__read, name="" + (name_prefix or "data") + ".read", definition={'enum': ['getHistory', 'getFullHistory', 'getMessagesBySessionRange', 'getRecentMessagesAcrossSessions']}, rule='enum')
        if "readParams" in data_keys:
            data_keys.remove("readParams")
            data__readParams = data["readParams"]
            if not isinstance(data__readParams, (dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".readParams must be object", value=data__readParams, name="" + (name_prefix or "data") + ".readParams", definition={'type': 'object'}, rule='type')
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'sessionId': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'mutate': {'enum': ['saved', 'returned']}, 'messages': {'type': 'array'}, 'read': {'enum': ['getHistory', 'getFullHistory', 'getMessagesBySessionRange', 'getRecentMessagesAcrossSessions']}, 'readParams': {'type': 'object'}}, 'required': ['handle', 'sessionId', 'mutate', 'messages', 'read', 'readParams'], 'additionalProperties': False}, rule='additionalProperties')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_value(data, custom_formats={}, name_prefix=None):
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_plantrawmetadata(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'namespace': {'type': 'string'}, 'key': {'type': 'string'}, 'kind': {'enum': ['not-json', 'not-object']}}, 'required': ['handle', 'namespace', 'key', 'kind'], 'additionalProperties': False}, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['handle', 'namespace', 'key', 'kind']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'namespace': {'type': 'string'}, 'key': {'type': 'string'}, 'kind': {'enum': ['not-json', 'not-object']}}, 'required': ['handle', 'namespace', 'key', 'kind'], 'additionalProperties': False}, rule='required')
        data_keys = set(data.keys())
        if "handle" in data_keys:
            data_keys.remove("handle")
            data__handle = data["handle"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_handle(data__handle, custom_formats, (name_prefix or "data") + ".handle")
        if "namespace" in data_keys:
            data_keys.remove("namespace")
            data__namespace = data["namespace"]
            if not isinstance(data__namespace, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".namespace must be string", value=data__namespace, name="" + (name_prefix or "data") + ".namespace", definition={'type': 'string'}, rule='type')
        if "key" in data_keys:
            data_keys.remove("key")
            data__key = data["key"]
            if not isinstance(data__key, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".key must be string", value=data__key, name="" + (name_prefix or "data") + ".key", definition={'type': 'string'}, rule='type')
        if "kind" in data_keys:
            data_keys.remove("kind")
            data__kind = data["kind"]
            if not (isinstance(data__kind, str) and data__kind == 'not-json' or isinstance(data__kind, str) and data__kind == 'not-object'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".kind must be one of ['not-json', 'not-object']", value=data__kind, name="" + (name_prefix or "data") + ".kind", definition={'enum': ['not-json', 'not-object']}, rule='enum')
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'namespace': {'type': 'string'}, 'key': {'type': 'string'}, 'kind': {'enum': ['not-json', 'not-object']}}, 'required': ['handle', 'namespace', 'key', 'kind'], 'additionalProperties': False}, rule='additionalProperties')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_deletemessagesbytimestamps(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'sessionId': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'timestamps': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'sessionId', 'timestamps'], 'additionalProperties': False}, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['handle', 'sessionId', 'timestamps']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'sessionId': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'timestamps': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'sessionId', 'timestamps'], 'additionalProperties': False}, rule='required')
        data_keys = set(data.keys())
        if "handle" in data_keys:
            data_keys.remove("handle")
            data__handle = data["handle"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_handle(data__handle, custom_formats, (name_prefix or "data") + ".handle")
        if "sessionId" in data_keys:
            data_keys.remove("sessionId")
            data__sessionId = data["sessionId"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_value(data__sessionId, custom_formats, (name_prefix or "data") + ".sessionId")
        if "timestamps" in data_keys:
            data_keys.remove("timestamps")
            data__timestamps = data["timestamps"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_value(data__timestamps, custom_formats, (name_prefix or "data") + ".timestamps")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'sessionId': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'timestamps': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'sessionId', 'timestamps'], 'additionalProperties': False}, rule='additionalProperties')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_updatemessagecontent(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'sessionId': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'oldText': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'newText': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'recentLimit': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'sessionId', 'oldText', 'newText'], 'additionalProperties': False}, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['handle', 'sessionId', 'oldText', 'newText']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'sessionId': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'oldText': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'newText': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'recentLimit': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'sessionId', 'oldText', 'newText'], 'additionalProperties': False}, rule='required')
        data_keys = set(data.keys())
        if "handle" in data_keys:
            data_keys.remove("handle")
            data__handle = data["handle"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_handle(data__handle, custom_formats, (name_prefix or "data") + ".handle")
        if "sessionId" in data_keys:
            data_keys.remove("sessionId")
            data__sessionId = data["sessionId"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_value(data__sessionId, custom_formats, (name_prefix or "data") + ".sessionId")
        if "oldText" in data_keys:
            data_keys.remove("oldText")
            data__oldText = data["oldText"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_value(data__oldText, custom_formats, (name_prefix or "data") + ".oldText")
        if "newText" in data_keys:
            data_keys.remove("newText")
            data__newText = data["newText"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_value(data__newText, custom_formats, (name_prefix or "data") + ".newText")
        if "recentLimit" in data_keys:
            data_keys.remove("recentLimit")
            data__recentLimit = data["recentLimit"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_value(data__recentLimit, custom_formats, (name_prefix or "data") + ".recentLimit")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'sessionId': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'oldText': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'newText': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'recentLimit': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'sessionId', 'oldText', 'newText'], 'additionalProperties': False}, rule='additionalProperties')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_listmetadatakeys(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'namespace': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'namespace'], 'additionalProperties': False}, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['handle', 'namespace']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'namespace': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'namespace'], 'additionalProperties': False}, rule='required')
        data_keys = set(data.keys())
        if "handle" in data_keys:
            data_keys.remove("handle")
            data__handle = data["handle"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_handle(data__handle, custom_formats, (name_prefix or "data") + ".handle")
        if "namespace" in data_keys:
            data_keys.remove("namespace")
            data__namespace = data["namespace"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_value(data__namespace, custom_formats, (name_prefix or "data") + ".namespace")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'namespace': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'namespace'], 'additionalProperties': False}, rule='additionalProperties')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_getrecentmessagesacrosssessions(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'query': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'query'], 'additionalProperties': False}, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['handle', 'query']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'query': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'query'], 'additionalProperties': False}, rule='required')
        data_keys = set(data.keys())
        if "handle" in data_keys:
            data_keys.remove("handle")
            data__handle = data["handle"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_handle(data__handle, custom_formats, (name_prefix or "data") + ".handle")
        if "query" in data_keys:
            data_keys.remove("query")
            data__query = data["query"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_value(data__query, custom_formats, (name_prefix or "data") + ".query")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'query': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'query'], 'additionalProperties': False}, rule='additionalProperties')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_getmessagesbysessionrange(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'sessionId': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'fromTs': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'toTs': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'roles': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'excludeKinds': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'sessionId', 'fromTs', 'toTs'], 'additionalProperties': False}, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['handle', 'sessionId', 'fromTs', 'toTs']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'sessionId': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'fromTs': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'toTs': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'roles': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'excludeKinds': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'sessionId', 'fromTs', 'toTs'], 'additionalProperties': False}, rule='required')
        data_keys = set(data.keys())
        if "handle" in data_keys:
            data_keys.remove("handle")
            data__handle = data["handle"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_handle(data__handle, custom_formats, (name_prefix or "data") + ".handle")
        if "sessionId" in data_keys:
            data_keys.remove("sessionId")
            data__sessionId = data["sessionId"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_value(data__sessionId, custom_formats, (name_prefix or "data") + ".sessionId")
        if "fromTs" in data_keys:
            data_keys.remove("fromTs")
            data__fromTs = data["fromTs"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_value(data__fromTs, custom_formats, (name_prefix or "data") + ".fromTs")
        if "toTs" in data_keys:
            data_keys.remove("toTs")
            data__toTs = data["toTs"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_value(data__toTs, custom_formats, (name_prefix or "data") + ".toTs")
        if "roles" in data_keys:
            data_keys.remove("roles")
            data__roles = data["roles"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_value(data__roles, custom_formats, (name_prefix or "data") + ".roles")
        if "excludeKinds" in data_keys:
            data_keys.remove("excludeKinds")
            data__excludeKinds = data["excludeKinds"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_value(data__excludeKinds, custom_formats, (name_prefix or "data") + ".excludeKinds")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'sessionId': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'fromTs': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'toTs': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'roles': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'excludeKinds': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'sessionId', 'fromTs', 'toTs'], 'additionalProperties': False}, rule='additionalProperties')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_counthistory(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'sessionId': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'sessionId'], 'additionalProperties': False}, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['handle', 'sessionId']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'sessionId': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'sessionId'], 'additionalProperties': False}, rule='required')
        data_keys = set(data.keys())
        if "handle" in data_keys:
            data_keys.remove("handle")
            data__handle = data["handle"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_handle(data__handle, custom_formats, (name_prefix or "data") + ".handle")
        if "sessionId" in data_keys:
            data_keys.remove("sessionId")
            data__sessionId = data["sessionId"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_value(data__sessionId, custom_formats, (name_prefix or "data") + ".sessionId")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'sessionId': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'sessionId'], 'additionalProperties': False}, rule='additionalProperties')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_getfullhistory(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'sessionId': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'limit': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'sessionId'], 'additionalProperties': False}, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['handle', 'sessionId']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'sessionId': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'limit': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'sessionId'], 'additionalProperties': False}, rule='required')
        data_keys = set(data.keys())
        if "handle" in data_keys:
            data_keys.remove("handle")
            data__handle = data["handle"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_handle(data__handle, custom_formats, (name_prefix or "data") + ".handle")
        if "sessionId" in data_keys:
            data_keys.remove("sessionId")
            data__sessionId = data["sessionId"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_value(data__sessionId, custom_formats, (name_prefix or "data") + ".sessionId")
        if "limit" in data_keys:
            data_keys.remove("limit")
            data__limit = data["limit"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_value(data__limit, custom_formats, (name_prefix or "data") + ".limit")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'sessionId': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'limit': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'sessionId'], 'additionalProperties': False}, rule='additionalProperties')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_clearall(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}}, 'required': ['handle'], 'additionalProperties': False}, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['handle']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}}, 'required': ['handle'], 'additionalProperties': False}, rule='required')
        data_keys = set(data.keys())
        if "handle" in data_keys:
            data_keys.remove("handle")
            data__handle = data["handle"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_handle(data__handle, custom_formats, (name_prefix or "data") + ".handle")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}}, 'required': ['handle'], 'additionalProperties': False}, rule='additionalProperties')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_commitmetadata(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'ops': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'ops'], 'additionalProperties': False}, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['handle', 'ops']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'ops': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'ops'], 'additionalProperties': False}, rule='required')
        data_keys = set(data.keys())
        if "handle" in data_keys:
            data_keys.remove("handle")
            data__handle = data["handle"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_handle(data__handle, custom_formats, (name_prefix or "data") + ".handle")
        if "ops" in data_keys:
            data_keys.remove("ops")
            data__ops = data["ops"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_value(data__ops, custom_formats, (name_prefix or "data") + ".ops")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'ops': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'ops'], 'additionalProperties': False}, rule='additionalProperties')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_deletemetadata(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'namespace': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'key': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'namespace', 'key'], 'additionalProperties': False}, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['handle', 'namespace', 'key']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'namespace': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'key': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'namespace', 'key'], 'additionalProperties': False}, rule='required')
        data_keys = set(data.keys())
        if "handle" in data_keys:
            data_keys.remove("handle")
            data__handle = data["handle"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_handle(data__handle, custom_formats, (name_prefix or "data") + ".handle")
        if "namespace" in data_keys:
            data_keys.remove("namespace")
            data__namespace = data["namespace"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_value(data__namespace, custom_formats, (name_prefix or "data") + ".namespace")
        if "key" in data_keys:
            data_keys.remove("key")
            data__key = data["key"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_value(data__key, custom_formats, (name_prefix or "data") + ".key")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'namespace': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'key': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'namespace', 'key'], 'additionalProperties': False}, rule='additionalProperties')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_listmetadata(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'namespace': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'namespace'], 'additionalProperties': False}, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['handle', 'namespace']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'namespace': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'namespace'], 'additionalProperties': False}, rule='required')
        data_keys = set(data.keys())
        if "handle" in data_keys:
            data_keys.remove("handle")
            data__handle = data["handle"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_handle(data__handle, custom_formats, (name_prefix or "data") + ".handle")
        if "namespace" in data_keys:
            data_keys.remove("namespace")
            data__namespace = data["namespace"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_value(data__namespace, custom_formats, (name_prefix or "data") + ".namespace")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'namespace': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'namespace'], 'additionalProperties': False}, rule='additionalProperties')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_getmetadata(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'namespace': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'key': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'namespace', 'key'], 'additionalProperties': False}, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['handle', 'namespace', 'key']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'namespace': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'key': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'namespace', 'key'], 'additionalProperties': False}, rule='required')
        data_keys = set(data.keys())
        if "handle" in data_keys:
            data_keys.remove("handle")
            data__handle = data["handle"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_handle(data__handle, custom_formats, (name_prefix or "data") + ".handle")
        if "namespace" in data_keys:
            data_keys.remove("namespace")
            data__namespace = data["namespace"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_value(data__namespace, custom_formats, (name_prefix or "data") + ".namespace")
        if "key" in data_keys:
            data_keys.remove("key")
            data__key = data["key"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_value(data__key, custom_formats, (name_prefix or "data") + ".key")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'namespace': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'key': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'namespace', 'key'], 'additionalProperties': False}, rule='additionalProperties')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_savemetadata(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'namespace': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'key': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'data': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'namespace', 'key', 'data'], 'additionalProperties': False}, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['handle', 'namespace', 'key', 'data']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'namespace': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'key': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'data': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'namespace', 'key', 'data'], 'additionalProperties': False}, rule='required')
        data_keys = set(data.keys())
        if "handle" in data_keys:
            data_keys.remove("handle")
            data__handle = data["handle"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_handle(data__handle, custom_formats, (name_prefix or "data") + ".handle")
        if "namespace" in data_keys:
            data_keys.remove("namespace")
            data__namespace = data["namespace"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_value(data__namespace, custom_formats, (name_prefix or "data") + ".namespace")
        if "key" in data_keys:
            data_keys.remove("key")
            data__key = data["key"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_value(data__key, custom_formats, (name_prefix or "data") + ".key")
        if "data" in data_keys:
            data_keys.remove("data")
            data__data = data["data"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_value(data__data, custom_formats, (name_prefix or "data") + ".data")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'namespace': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'key': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'data': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'namespace', 'key', 'data'], 'additionalProperties': False}, rule='additionalProperties')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_archivespan(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'sessionId': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'span': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'sessionId', 'span'], 'additionalProperties': False}, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['handle', 'sessionId', 'span']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'sessionId': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'span': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'sessionId', 'span'], 'additionalProperties': False}, rule='required')
        data_keys = set(data.keys())
        if "handle" in data_keys:
            data_keys.remove("handle")
            data__handle = data["handle"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_handle(data__handle, custom_formats, (name_prefix or "data") + ".handle")
        if "sessionId" in data_keys:
            data_keys.remove("sessionId")
            data__sessionId = data["sessionId"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_value(data__sessionId, custom_formats, (name_prefix or "data") + ".sessionId")
        if "span" in data_keys:
            data_keys.remove("span")
            data__span = data["span"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_value(data__span, custom_formats, (name_prefix or "data") + ".span")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'sessionId': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'span': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'sessionId', 'span'], 'additionalProperties': False}, rule='additionalProperties')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_clearsession(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'sessionId': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'sessionId'], 'additionalProperties': False}, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['handle', 'sessionId']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'sessionId': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'sessionId'], 'additionalProperties': False}, rule='required')
        data_keys = set(data.keys())
        if "handle" in data_keys:
            data_keys.remove("handle")
            data__handle = data["handle"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_handle(data__handle, custom_formats, (name_prefix or "data") + ".handle")
        if "sessionId" in data_keys:
            data_keys.remove("sessionId")
            data__sessionId = data["sessionId"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_value(data__sessionId, custom_formats, (name_prefix or "data") + ".sessionId")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'sessionId': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'sessionId'], 'additionalProperties': False}, rule='additionalProperties')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_gethistory(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'sessionId': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'limit': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'sessionId'], 'additionalProperties': False}, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['handle', 'sessionId']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'sessionId': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'limit': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'sessionId'], 'additionalProperties': False}, rule='required')
        data_keys = set(data.keys())
        if "handle" in data_keys:
            data_keys.remove("handle")
            data__handle = data["handle"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_handle(data__handle, custom_formats, (name_prefix or "data") + ".handle")
        if "sessionId" in data_keys:
            data_keys.remove("sessionId")
            data__sessionId = data["sessionId"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_value(data__sessionId, custom_formats, (name_prefix or "data") + ".sessionId")
        if "limit" in data_keys:
            data_keys.remove("limit")
            data__limit = data["limit"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_value(data__limit, custom_formats, (name_prefix or "data") + ".limit")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'sessionId': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'limit': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'sessionId'], 'additionalProperties': False}, rule='additionalProperties')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_savemessage(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'sessionId': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'message': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'sessionId', 'message'], 'additionalProperties': False}, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['handle', 'sessionId', 'message']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'sessionId': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'message': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'sessionId', 'message'], 'additionalProperties': False}, rule='required')
        data_keys = set(data.keys())
        if "handle" in data_keys:
            data_keys.remove("handle")
            data__handle = data["handle"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_handle(data__handle, custom_formats, (name_prefix or "data") + ".handle")
        if "sessionId" in data_keys:
            data_keys.remove("sessionId")
            data__sessionId = data["sessionId"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_value(data__sessionId, custom_formats, (name_prefix or "data") + ".sessionId")
        if "message" in data_keys:
            data_keys.remove("message")
            data__message = data["message"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_value(data__message, custom_formats, (name_prefix or "data") + ".message")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}, 'sessionId': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}, 'message': {'description': "Any JSON value in the protocol's value encoding (tagged objects $num, $int, $bytes, $map, $opaque, $object; see docs/stdio-protocol.md). Hostile arguments are sent on purpose, so contract parameters are not typed here: the adapter's checks are what is being tested."}}, 'required': ['handle', 'sessionId', 'message'], 'additionalProperties': False}, rule='additionalProperties')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_close(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}}, 'required': ['handle'], 'additionalProperties': False}, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['handle']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}}, 'required': ['handle'], 'additionalProperties': False}, rule='required')
        data_keys = set(data.keys())
        if "handle" in data_keys:
            data_keys.remove("handle")
            data__handle = data["handle"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_handle(data__handle, custom_formats, (name_prefix or "data") + ".handle")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'handle': {'type': 'string', 'minLength': 1}}, 'required': ['handle'], 'additionalProperties': False}, rule='additionalProperties')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_open(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'rangeQueryLimit': {'type': 'integer', 'minimum': 1}, 'crossSessionMaxLimit': {'type': 'integer', 'minimum': 1}, 'path': {'description': 'The folder a durable store keeps its files in (sent to durable adapters only).', 'type': 'string', 'minLength': 1}}, 'required': ['rangeQueryLimit', 'crossSessionMaxLimit'], 'additionalProperties': False}, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['rangeQueryLimit', 'crossSessionMaxLimit']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'rangeQueryLimit': {'type': 'integer', 'minimum': 1}, 'crossSessionMaxLimit': {'type': 'integer', 'minimum': 1}, 'path': {'description': 'The folder a durable store keeps its files in (sent to durable adapters only).', 'type': 'string', 'minLength': 1}}, 'required': ['rangeQueryLimit', 'crossSessionMaxLimit'], 'additionalProperties': False}, rule='required')
        data_keys = set(data.keys())
        if "rangeQueryLimit" in data_keys:
            data_keys.remove("rangeQueryLimit")
            data__rangeQueryLimit = data["rangeQueryLimit"]
            if not isinstance(data__rangeQueryLimit, (int)) and not (isinstance(data__rangeQueryLimit, float) and data__rangeQueryLimit.is_integer()) or isinstance(data__rangeQueryLimit, bool):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".rangeQueryLimit must be integer", value=data__rangeQueryLimit, name="" + (name_prefix or "data") + ".rangeQueryLimit", definition={'type': 'integer', 'minimum': 1}, rule='type')
            if isinstance(data__rangeQueryLimit, (int, float, Decimal)) and not isinstance(data__rangeQueryLimit, bool):
                if data__rangeQueryLimit < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".rangeQueryLimit must be bigger than or equal to 1", value=data__rangeQueryLimit, name="" + (name_prefix or "data") + ".rangeQueryLimit", definition={'type': 'integer', 'minimum': 1}, rule='minimum')
        if "crossSessionMaxLimit" in data_keys:
            data_keys.remove("crossSessionMaxLimit")
            data__crossSessionMaxLimit = data["crossSessionMaxLimit"]
            if not isinstance(data__crossSessionMaxLimit, (int)) and not (isinstance(data__crossSessionMaxLimit, float) and data__crossSessionMaxLimit.is_integer()) or isinstance(data__crossSessionMaxLimit, bool):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".crossSessionMaxLimit must be integer", value=data__crossSessionMaxLimit, name="" + (name_prefix or "data") + ".crossSessionMaxLimit", definition={'type': 'integer', 'minimum': 1}, rule='type')
            if isinstance(data__crossSessionMaxLimit, (int, float, Decimal)) and not isinstance(data__crossSessionMaxLimit, bool):
                if data__crossSessionMaxLimit < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".crossSessionMaxLimit must be bigger than or equal to 1", value=data__crossSessionMaxLimit, name="" + (name_prefix or "data") + ".crossSessionMaxLimit", definition={'type': 'integer', 'minimum': 1}, rule='minimum')
        if "path" in data_keys:
            data_keys.remove("path")
            data__path = data["path"]
            if not isinstance(data__path, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".path must be string", value=data__path, name="" + (name_prefix or "data") + ".path", definition={'description': 'The folder a durable store keeps its files in (sent to durable adapters only).', 'type': 'string', 'minLength': 1}, rule='type')
            if isinstance(data__path, str):
                data__path_len = len(data__path)
                if data__path_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".path must be longer than or equal to 1 characters", value=data__path, name="" + (name_prefix or "data") + ".path", definition={'description': 'The folder a durable store keeps its files in (sent to durable adapters only).', 'type': 'string', 'minLength': 1}, rule='minLength')
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'rangeQueryLimit': {'type': 'integer', 'minimum': 1}, 'crossSessionMaxLimit': {'type': 'integer', 'minimum': 1}, 'path': {'description': 'The folder a durable store keeps its files in (sent to durable adapters only).', 'type': 'string', 'minLength': 1}}, 'required': ['rangeQueryLimit', 'crossSessionMaxLimit'], 'additionalProperties': False}, rule='additionalProperties')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_params_hello(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'protocolVersion': {'const': 1}}, 'required': ['protocolVersion'], 'additionalProperties': False}, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['protocolVersion']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'protocolVersion': {'const': 1}}, 'required': ['protocolVersion'], 'additionalProperties': False}, rule='required')
        data_keys = set(data.keys())
        if "protocolVersion" in data_keys:
            data_keys.remove("protocolVersion")
            data__protocolVersion = data["protocolVersion"]
            if not (isinstance(data__protocolVersion, (int, float)) and not isinstance(data__protocolVersion, bool) and data__protocolVersion == 1):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".protocolVersion must be same as const definition: 1", value=data__protocolVersion, name="" + (name_prefix or "data") + ".protocolVersion", definition={'const': 1}, rule='const')
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'protocolVersion': {'const': 1}}, 'required': ['protocolVersion'], 'additionalProperties': False}, rule='additionalProperties')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_envelope(data, custom_formats={}, name_prefix=None):
    data_one_of_count6 = 0
    if data_one_of_count6 < 2:
        try:
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_request(data, custom_formats, (name_prefix or "data") + "")
            data_one_of_count6 += 1
        except (JsonSchemaValueException, JsonSchemaValuesException): pass
    if data_one_of_count6 < 2:
        try:
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_success(data, custom_formats, (name_prefix or "data") + "")
            data_one_of_count6 += 1
        except (JsonSchemaValueException, JsonSchemaValuesException): pass
    if data_one_of_count6 < 2:
        try:
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_failure(data, custom_formats, (name_prefix or "data") + "")
            data_one_of_count6 += 1
        except (JsonSchemaValueException, JsonSchemaValuesException): pass
    if data_one_of_count6 != 1:
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be valid exactly by one definition" + (" (" + str(data_one_of_count6) + " matches found)"), value=data, name="" + (name_prefix or "data") + "", definition={'title': 'Aalis memory stdio driver protocol, version 1', 'description': "Every line the kit writes to an adapter's stdin and every line the adapter writes to its stdout is one JSON-RPC 2.0 message matching this schema. A request's params match $defs/params/<method>; a successful response's result matches $defs/results/<method of its request>. See docs/stdio-protocol.md.", 'oneOf': [{'type': 'object', 'properties': {'jsonrpc': {'const': '2.0'}, 'id': {'$ref': 'https://github.com/aalis-framework/aalis-memory-conformance/stdio/protocol.schema.json#/$defs/id'}, 'method': {'$ref': 'https://github.com/aalis-framework/aalis-memory-conformance/stdio/protocol.schema.json#/$defs/method'}, 'params': {'type': 'object'}}, 'required': ['jsonrpc', 'id', 'method', 'params'], 'additionalProperties': False}, {'type': 'object', 'properties': {'jsonrpc': {'const': '2.0'}, 'id': {'$ref': 'https://github.com/aalis-framework/aalis-memory-conformance/stdio/protocol.schema.json#/$defs/id'}, 'result': {}}, 'required': ['jsonrpc', 'id', 'result'], 'additionalProperties': False}, {'type': 'object', 'properties': {'jsonrpc': {'const': '2.0'}, 'id': {'anyOf': [{'$ref': '#/$defs/id'}, {'type': 'null'}]}, 'error': {'$ref': 'https://github.com/aalis-framework/aalis-memory-conformance/stdio/protocol.schema.json#/$defs/error'}}, 'required': ['jsonrpc', 'id', 'error'], 'additionalProperties': False}]}, rule='oneOf')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_failure(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'jsonrpc': {'const': '2.0'}, 'id': {'anyOf': [{'type': 'integer', 'minimum': 0}, {'type': 'null'}]}, 'error': {'type': 'object', 'properties': {'code': {'type': 'integer'}, 'message': {'type': 'string'}, 'data': {'type': 'object', 'properties': {'errorClass': {'enum': ['TypeError', 'ValueError', 'SizeError', 'RecursionError', 'ConfigError', 'Error']}, 'stack': {'type': 'string'}}, 'required': ['errorClass']}}, 'required': ['code', 'message'], 'additionalProperties': False}}, 'required': ['jsonrpc', 'id', 'error'], 'additionalProperties': False}, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['jsonrpc', 'id', 'error']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'jsonrpc': {'const': '2.0'}, 'id': {'anyOf': [{'type': 'integer', 'minimum': 0}, {'type': 'null'}]}, 'error': {'type': 'object', 'properties': {'code': {'type': 'integer'}, 'message': {'type': 'string'}, 'data': {'type': 'object', 'properties': {'errorClass': {'enum': ['TypeError', 'ValueError', 'SizeError', 'RecursionError', 'ConfigError', 'Error']}, 'stack': {'type': 'string'}}, 'required': ['errorClass']}}, 'required': ['code', 'message'], 'additionalProperties': False}}, 'required': ['jsonrpc', 'id', 'error'], 'additionalProperties': False}, rule='required')
        data_keys = set(data.keys())
        if "jsonrpc" in data_keys:
            data_keys.remove("jsonrpc")
            data__jsonrpc = data["jsonrpc"]
            if not (isinstance(data__jsonrpc, str) and data__jsonrpc == '2.0'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".jsonrpc must be same as const definition: 2.0", value=data__jsonrpc, name="" + (name_prefix or "data") + ".jsonrpc", definition={'const': '2.0'}, rule='const')
        if "id" in data_keys:
            data_keys.remove("id")
            data__id = data["id"]
            data__id_any_of_count7 = 0
            if not data__id_any_of_count7:
                try:
                    validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_id(data__id, custom_formats, (name_prefix or "data") + ".id")
                    data__id_any_of_count7 += 1
                except (JsonSchemaValueException, JsonSchemaValuesException): pass
            if not data__id_any_of_count7:
                try:
                    if not isinstance(data__id, (NoneType)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".id must be null", value=data__id, name="" + (name_prefix or "data") + ".id", definition={'type': 'null'}, rule='type')
                    data__id_any_of_count7 += 1
                except (JsonSchemaValueException, JsonSchemaValuesException): pass
            if not data__id_any_of_count7:
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".id cannot be validated by any definition", value=data__id, name="" + (name_prefix or "data") + ".id", definition={'anyOf': [{'type': 'integer', 'minimum': 0}, {'type': 'null'}]}, rule='anyOf')
        if "error" in data_keys:
            data_keys.remove("error")
            data__error = data["error"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_error(data__error, custom_formats, (name_prefix or "data") + ".error")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'jsonrpc': {'const': '2.0'}, 'id': {'anyOf': [{'type': 'integer', 'minimum': 0}, {'type': 'null'}]}, 'error': {'type': 'object', 'properties': {'code': {'type': 'integer'}, 'message': {'type': 'string'}, 'data': {'type': 'object', 'properties': {'errorClass': {'enum': ['TypeError', 'ValueError', 'SizeError', 'RecursionError', 'ConfigError', 'Error']}, 'stack': {'type': 'string'}}, 'required': ['errorClass']}}, 'required': ['code', 'message'], 'additionalProperties': False}}, 'required': ['jsonrpc', 'id', 'error'], 'additionalProperties': False}, rule='additionalProperties')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_error(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'code': {'type': 'integer'}, 'message': {'type': 'string'}, 'data': {'type': 'object', 'properties': {'errorClass': {'enum': ['TypeError', 'ValueError', 'SizeError', 'RecursionError', 'ConfigError', 'Error']}, 'stack': {'type': 'string'}}, 'required': ['errorClass']}}, 'required': ['code', 'message'], 'additionalProperties': False}, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['code', 'message']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'code': {'type': 'integer'}, 'message': {'type': 'string'}, 'data': {'type': 'object', 'properties': {'errorClass': {'enum': ['TypeError', 'ValueError', 'SizeError', 'RecursionError', 'ConfigError', 'Error']}, 'stack': {'type': 'string'}}, 'required': ['errorClass']}}, 'required': ['code', 'message'], 'additionalProperties': False}, rule='required')
        data_keys = set(data.keys())
        if "code" in data_keys:
            data_keys.remove("code")
            data__code = data["code"]
            if not isinstance(data__code, (int)) and not (isinstance(data__code, float) and data__code.is_integer()) or isinstance(data__code, bool):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".code must be integer", value=data__code, name="" + (name_prefix or "data") + ".code", definition={'type': 'integer'}, rule='type')
        if "message" in data_keys:
            data_keys.remove("message")
            data__message = data["message"]
            if not isinstance(data__message, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".message must be string", value=data__message, name="" + (name_prefix or "data") + ".message", definition={'type': 'string'}, rule='type')
        if "data" in data_keys:
            data_keys.remove("data")
            data__data = data["data"]
            if not isinstance(data__data, (dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".data must be object", value=data__data, name="" + (name_prefix or "data") + ".data", definition={'type': 'object', 'properties': {'errorClass': {'enum': ['TypeError', 'ValueError', 'SizeError', 'RecursionError', 'ConfigError', 'Error']}, 'stack': {'type': 'string'}}, 'required': ['errorClass']}, rule='type')
            data__data_is_dict = isinstance(data__data, dict)
            if data__data_is_dict:
                data__data__missing_keys = set(['errorClass']) - data__data.keys()
                if data__data__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".data must contain " + (str(sorted(data__data__missing_keys)) + " properties"), value=data__data, name="" + (name_prefix or "data") + ".data", definition={'type': 'object', 'properties': {'errorClass': {'enum': ['TypeError', 'ValueError', 'SizeError', 'RecursionError', 'ConfigError', 'Error']}, 'stack': {'type': 'string'}}, 'required': ['errorClass']}, rule='required')
                data__data_keys = set(data__data.keys())
                if "errorClass" in data__data_keys:
                    data__data_keys.remove("errorClass")
                    data__data__errorClass = data__data["errorClass"]
                    if not (isinstance(data__data__errorClass, str) and data__data__errorClass == 'TypeError' or isinstance(data__data__errorClass, str) and data__data__errorClass == 'ValueError' or isinstance(data__data__errorClass, str) and data__data__errorClass == 'SizeError' or isinstance(data__data__errorClass, str) and data__data__errorClass == 'RecursionError' or isinstance(data__data__errorClass, str) and data__data__errorClass == 'ConfigError' or isinstance(data__data__errorClass, str) and data__data__errorClass == 'Error'):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".data.errorClass must be one of ['TypeError', 'ValueError', 'SizeError', 'RecursionError', 'ConfigError', 'Error']", value=data__data__errorClass, name="" + (name_prefix or "data") + ".data.errorClass", definition={'enum': ['TypeError', 'ValueError', 'SizeError', 'RecursionError', 'ConfigError', 'Error']}, rule='enum')
                if "stack" in data__data_keys:
                    data__data_keys.remove("stack")
                    data__data__stack = data__data["stack"]
                    if not isinstance(data__data__stack, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".data.stack must be string", value=data__data__stack, name="" + (name_prefix or "data") + ".data.stack", definition={'type': 'string'}, rule='type')
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'code': {'type': 'integer'}, 'message': {'type': 'string'}, 'data': {'type': 'object', 'properties': {'errorClass': {'enum': ['TypeError', 'ValueError', 'SizeError', 'RecursionError', 'ConfigError', 'Error']}, 'stack': {'type': 'string'}}, 'required': ['errorClass']}}, 'required': ['code', 'message'], 'additionalProperties': False}, rule='additionalProperties')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_id(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (int)) and not (isinstance(data, float) and data.is_integer()) or isinstance(data, bool):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be integer", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'integer', 'minimum': 0}, rule='type')
    if isinstance(data, (int, float, Decimal)) and not isinstance(data, bool):
        if data < 0:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must be bigger than or equal to 0", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'integer', 'minimum': 0}, rule='minimum')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_success(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'jsonrpc': {'const': '2.0'}, 'id': {'type': 'integer', 'minimum': 0}, 'result': {}}, 'required': ['jsonrpc', 'id', 'result'], 'additionalProperties': False}, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['jsonrpc', 'id', 'result']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'jsonrpc': {'const': '2.0'}, 'id': {'type': 'integer', 'minimum': 0}, 'result': {}}, 'required': ['jsonrpc', 'id', 'result'], 'additionalProperties': False}, rule='required')
        data_keys = set(data.keys())
        if "jsonrpc" in data_keys:
            data_keys.remove("jsonrpc")
            data__jsonrpc = data["jsonrpc"]
            if not (isinstance(data__jsonrpc, str) and data__jsonrpc == '2.0'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".jsonrpc must be same as const definition: 2.0", value=data__jsonrpc, name="" + (name_prefix or "data") + ".jsonrpc", definition={'const': '2.0'}, rule='const')
        if "id" in data_keys:
            data_keys.remove("id")
            data__id = data["id"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_id(data__id, custom_formats, (name_prefix or "data") + ".id")
        if "result" in data_keys:
            data_keys.remove("result")
            data__result = data["result"]
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'jsonrpc': {'const': '2.0'}, 'id': {'type': 'integer', 'minimum': 0}, 'result': {}}, 'required': ['jsonrpc', 'id', 'result'], 'additionalProperties': False}, rule='additionalProperties')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_request(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'jsonrpc': {'const': '2.0'}, 'id': {'type': 'integer', 'minimum': 0}, 'method': {'enum': ['hello', 'open', 'close', 'saveMessage', 'getHistory', 'clearSession', 'archiveSpan', 'saveMetadata', 'getMetadata', 'listMetadata', 'deleteMetadata', 'commitMetadata', 'clearAll', 'getFullHistory', 'countHistory', 'getMessagesBySessionRange', 'getRecentMessagesAcrossSessions', 'listMetadataKeys', 'updateMessageContent', 'deleteMessagesByTimestamps', 'plantRawMetadata', 'isolationProbe']}, 'params': {'type': 'object'}}, 'required': ['jsonrpc', 'id', 'method', 'params'], 'additionalProperties': False}, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['jsonrpc', 'id', 'method', 'params']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'jsonrpc': {'const': '2.0'}, 'id': {'type': 'integer', 'minimum': 0}, 'method': {'enum': ['hello', 'open', 'close', 'saveMessage', 'getHistory', 'clearSession', 'archiveSpan', 'saveMetadata', 'getMetadata', 'listMetadata', 'deleteMetadata', 'commitMetadata', 'clearAll', 'getFullHistory', 'countHistory', 'getMessagesBySessionRange', 'getRecentMessagesAcrossSessions', 'listMetadataKeys', 'updateMessageContent', 'deleteMessagesByTimestamps', 'plantRawMetadata', 'isolationProbe']}, 'params': {'type': 'object'}}, 'required': ['jsonrpc', 'id', 'method', 'params'], 'additionalProperties': False}, rule='required')
        data_keys = set(data.keys())
        if "jsonrpc" in data_keys:
            data_keys.remove("jsonrpc")
            data__jsonrpc = data["jsonrpc"]
            if not (isinstance(data__jsonrpc, str) and data__jsonrpc == '2.0'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".jsonrpc must be same as const definition: 2.0", value=data__jsonrpc, name="" + (name_prefix or "data") + ".jsonrpc", definition={'const': '2.0'}, rule='const')
        if "id" in data_keys:
            data_keys.remove("id")
            data__id = data["id"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_id(data__id, custom_formats, (name_prefix or "data") + ".id")
        if "method" in data_keys:
            data_keys.remove("method")
            data__method = data["method"]
            validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_method(data__method, custom_formats, (name_prefix or "data") + ".method")
        if "params" in data_keys:
            data_keys.remove("params")
            data__params = data["params"]
            if not isinstance(data__params, (dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".params must be object", value=data__params, name="" + (name_prefix or "data") + ".params", definition={'type': 'object'}, rule='type')
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition={'type': 'object', 'properties': {'jsonrpc': {'const': '2.0'}, 'id': {'type': 'integer', 'minimum': 0}, 'method': {'enum': ['hello', 'open', 'close', 'saveMessage', 'getHistory', 'clearSession', 'archiveSpan', 'saveMetadata', 'getMetadata', 'listMetadata', 'deleteMetadata', 'commitMetadata', 'clearAll', 'getFullHistory', 'countHistory', 'getMessagesBySessionRange', 'getRecentMessagesAcrossSessions', 'listMetadataKeys', 'updateMessageContent', 'deleteMessagesByTimestamps', 'plantRawMetadata', 'isolationProbe']}, 'params': {'type': 'object'}}, 'required': ['jsonrpc', 'id', 'method', 'params'], 'additionalProperties': False}, rule='additionalProperties')
    return data

def validate_https___github_com_aalis_framework_aalis_memory_conformance_stdio_protocol_schema_json___defs_method(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, str) and data == 'hello' or isinstance(data, str) and data == 'open' or isinstance(data, str) and data == 'close' or isinstance(data, str) and data == 'saveMessage' or isinstance(data, str) and data == 'getHistory' or isinstance(data, str) and data == 'clearSession' or isinstance(data, str) and data == 'archiveSpan' or isinstance(data, str) and data == 'saveMetadata' or isinstance(data, str) and data == 'getMetadata' or isinstance(data, str) and data == 'listMetadata' or isinstance(data, str) and data == 'deleteMetadata' or isinstance(data, str) and data == 'commitMetadata' or isinstance(data, str) and data == 'clearAll' or isinstance(data, str) and data == 'getFullHistory' or isinstance(data, str) and data == 'countHistory' or isinstance(data, str) and data == 'getMessagesBySessionRange' or isinstance(data, str) and data == 'getRecentMessagesAcrossSessions' or isinstance(data, str) and data == 'listMetadataKeys' or isinstance(data, str) and data == 'updateMessageContent' or isinstance(data, str) and data == 'deleteMessagesByTimestamps' or isinstance(data, str) and data == 'plantRawMetadata' or isinstance(data, str) and data == 'isolationProbe'):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be one of ['hello', 'open', 'close', 'saveMessage', 'getHistory', 'clearSession', 'archiveSpan', 'saveMetadata', 'getMetadata', 'listMetadata', 'deleteMetadata', 'commitMetadata', 'clearAll', 'getFullHistory', 'countHistory', 'getMessagesBySessionRange', 'getRecentMessagesAcrossSessions', 'listMetadataKeys', 'updateMessageContent', 'deleteMessagesByTimestamps', 'plantRawMetadata', 'isolationProbe']", value=data, name="" + (name_prefix or "data") + "", definition={'enum': ['hello', 'open', 'close', 'saveMessage', 'getHistory', 'clearSession', 'archiveSpan', 'saveMetadata', 'getMetadata', 'listMetadata', 'deleteMetadata', 'commitMetadata', 'clearAll', 'getFullHistory', 'countHistory', 'getMessagesBySessionRange', 'getRecentMessagesAcrossSessions', 'listMetadataKeys', 'updateMessageContent', 'deleteMessagesByTimestamps', 'plantRawMetadata', 'isolationProbe']}, rule='enum')
    return data