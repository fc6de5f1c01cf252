import type { FieldError } from '../../contract/profile-migrations';
import { t } from '../../i18n/t';

/**
 * A field's error in the reader's words ("At least 1.") instead of the validator's ("Too small: expected
 * number to be >=1"); an error the validator reports in another shape keeps its message.
 */
export function fieldErrorText(error: FieldError): string {
    const rule = error.rule;
    if (!rule) return error.message;
    switch (rule.kind) {
        case 'too_small':
            if (rule.of === 'text') return rule.limit <= 1 ? t`This field cannot be empty.` : `${t`At least this many characters:`} ${rule.limit}`;
            if (rule.of === 'list') return `${t`At least this many entries:`} ${rule.limit}`;
            return `${t`The smallest value allowed is`} ${rule.limit}.`;
        case 'too_big':
            if (rule.of === 'text') return `${t`At most this many characters:`} ${rule.limit}`;
            if (rule.of === 'list') return `${t`At most this many entries:`} ${rule.limit}`;
            return `${t`The largest value allowed is`} ${rule.limit}.`;
        case 'not_whole':
            return t`Enter a whole number.`;
        case 'wrong_type':
            return rule.expected === 'number' ? t`Enter a number.` : t`This value has the wrong kind.`;
        case 'not_allowed':
            return `${t`Choose one of:`} ${rule.allowed.join(', ')}`;
        case 'bad_format':
            return t`This value is not in the expected form.`;
    }
}
