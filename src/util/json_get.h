/* json_get.h - typed reads of one member of a cJSON object, shared by the
 * readers of iomark's own documents (import, report, lab, model).
 * Header only: two small inline functions, no state. */
#ifndef IOM_UTIL_JSON_GET_H
#define IOM_UTIL_JSON_GET_H

#include <cjson/cJSON.h>

/* The number o[key], or dflt when o is NULL, has no member key, or the
 * member is not a JSON number (a numeric string is not converted).
 * Borrows o; never fails. */
static inline double iom_json_num(const cJSON *o, const char *key, double dflt)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : dflt;
}

/* The string o[key], or dflt when o is NULL, has no member key, or the
 * member is not a JSON string. The result is owned by o (or is dflt): valid
 * while o lives. Never fails. */
static inline const char *iom_json_str(const cJSON *o, const char *key, const char *dflt)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : dflt;
}

#endif
